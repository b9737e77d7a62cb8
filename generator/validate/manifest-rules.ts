import type { ManifestIssue } from './manifest-issue.ts';
import { toJsonPath } from './json-path.ts';
import { visitFields, type PathSegments, type RuleContext } from './rule-context.ts';
import type { LoadedManifest, Manifest, ManifestCondition, ManifestField } from '../model/manifest.ts';
import { SYSTEM_FIELDS } from '../../contract/model/entity-model.ts';
import { FIELD_TYPE_REGISTRY, fieldType } from '../../contract/field-types/field-types.ts';
import { valueLabelsOf } from '../model/build-model.ts';
import { nearestName, nearestNames } from './nearest-name.ts';

// Each rule checks one thing across the schema-valid manifests and returns every problem it sees.
// The registry is an explicit object literal so a test can run, and name, each rule alone.
export type ManifestRule = (context: RuleContext) => ManifestIssue[];

const SCALAR_TYPES = new Set(['string', 'longString', 'enum', 'number', 'boolean', 'date']);
const STRING_TYPES = new Set(['string', 'longString', 'password', 'file', 'array.string']);
const NUMBER_TYPES = new Set(['number', 'array.number']);
const LIST_TYPES = new Set(['array.string', 'array.enum', 'array.number', 'array.ref', 'array.object']);

function issue(file: string, segments: PathSegments, rest: Omit<ManifestIssue, 'file' | 'path'>): ManifestIssue {
  return { file, path: toJsonPath(segments), ...rest };
}

function topFieldNames(manifest: Manifest): string[] {
  return manifest.fields.map((field) => field.name);
}

function knownColumnNames(manifest: Manifest): string[] {
  return [...topFieldNames(manifest), ...SYSTEM_FIELDS];
}

function list(values: Iterable<string>): string {
  return [...values].join(', ');
}

/** name, typeName, dbTable, api.basePath and route.path are each unique across manifests. */
const uniqueEntityIdentity: ManifestRule = ({ manifests }) => {
  const issues: ManifestIssue[] = [];
  const keys: [string, (m: Manifest) => string | undefined][] = [
    ['name', (m) => m.name],
    ['typeName', (m) => m.typeName],
    ['dbTable', (m) => m.dbTable],
    ['api.basePath', (m) => m.api.basePath],
    ['route.path', (m) => m.route?.path],
  ];
  for (const [path, read] of keys) {
    const seen = new Map<string, string>();
    for (const { file, manifest } of manifests) {
      const value = read(manifest);
      if (value === undefined) continue;
      const first = seen.get(value);
      if (first) {
        issues.push(issue(file, path.split('.'), {
          message: `"${value}" is already used by ${first}`,
          found: value,
          expected: `a ${path} no other manifest uses`,
          fix: `rename it in one of ${first} and ${file}`,
        }));
      } else seen.set(value, file);
    }
  }
  return issues;
};

/** manifests/botTrace.json holds the entity named bottrace: the file is named for what it defines. */
const fileNamedForEntity: ManifestRule = ({ manifests }) =>
  manifests.flatMap(({ file, manifest }) => {
    const base = file.replace(/^.*\//, '').replace(/\.json$/, '');
    return base.toLowerCase() === manifest.name.toLowerCase()
      ? []
      : [issue(file, ['name'], {
        message: 'the entity name does not match the file name',
        found: manifest.name,
        expected: `"${base}" (any letter case), as the file is ${file}`,
        fix: `rename the file to manifests/${manifest.name}.json or the entity to "${base}"`,
      })];
  });

/** No two fields in one list share a name, and none takes a system field's name. */
const uniqueFieldNames: ManifestRule = ({ manifests }) => {
  const issues: ManifestIssue[] = [];
  for (const { file, manifest } of manifests) {
    const lists: { fields: ManifestField[]; segments: PathSegments }[] = [{ fields: manifest.fields, segments: ['fields'] }];
    for (const visit of visitFields(manifest.fields)) {
      if (visit.field.objectFields) lists.push({ fields: visit.field.objectFields, segments: [...visit.segments, 'objectFields'] });
    }
    for (const { fields, segments } of lists) {
      const seen = new Map<string, number>();
      fields.forEach((field, index) => {
        const previous = seen.get(field.name);
        if (previous !== undefined) {
          issues.push(issue(file, [...segments, index, 'name'], {
            message: `field name "${field.name}" is already used by ${toJsonPath([...segments, previous])}`,
            found: field.name,
            expected: 'a name unique within its list',
            fix: 'rename or remove one of the two fields',
          }));
        } else seen.set(field.name, index);
        if (segments.length === 1 && (SYSTEM_FIELDS as readonly string[]).includes(field.name)) {
          issues.push(issue(file, [...segments, index, 'name'], {
            message: `"${field.name}" is a system field every record already has`,
            found: field.name,
            fix: 'remove the field; _id, createdAt and updatedAt are implicit',
          }));
        }
      });
    }
  }
  return issues;
};

/** Every ref names an existing entity, and its display and populate fields exist there. */
const refsResolve: ManifestRule = ({ manifests, byName }) => {
  const issues: ManifestIssue[] = [];
  for (const { file, manifest } of manifests) {
    for (const { field, segments } of visitFields(manifest.fields)) {
      if (!field.ref) continue;
      if (field.type !== 'ref' && field.type !== 'array.ref') {
        issues.push(issue(file, [...segments, 'ref'], {
          message: `"ref" only applies to ref and array.ref fields, this one is ${field.type}`,
          fix: 'remove "ref" or change the type',
        }));
        continue;
      }
      const target = byName.get(field.ref.entity);
      if (!target) {
        issues.push(issue(file, [...segments, 'ref', 'entity'], {
          message: `no entity is named "${field.ref.entity}"`,
          found: field.ref.entity,
          expected: `one of: ${list([...byName.keys()].sort())}`,
          fix: 'correct the entity name or add its manifest',
        }));
        continue;
      }
      const targetFields = knownColumnNames(target.manifest);
      const wanted: [string, PathSegments][] = [];
      if (field.ref.display) wanted.push([field.ref.display, [...segments, 'ref', 'display']]);
      (field.ref.populate ?? []).forEach((name, index) => wanted.push([name, [...segments, 'ref', 'populate', index]]));
      for (const [name, path] of wanted) {
        if (targetFields.includes(name)) continue;
        issues.push(issue(file, path, {
          message: `entity "${field.ref.entity}" has no field "${name}"`,
          found: name,
          expected: `a field of ${target.file}: ${list(targetFields)}`,
        }));
      }
      const secret = target.manifest.fields.find((f) => f.secret && wanted.some(([name]) => name === f.name));
      if (secret) {
        issues.push(issue(file, [...segments, 'ref'], {
          message: `"${secret.name}" of "${field.ref.entity}" is secret and cannot be shown through a ref`,
          fix: `pick another field of ${target.file}`,
        }));
      }
    }
  }
  return issues;
};

/** A field's tab or menu is declared in the manifest's tabs or menus. */
const sectionsExist: ManifestRule = ({ manifests }) => {
  const issues: ManifestIssue[] = [];
  for (const { file, manifest } of manifests) {
    for (const kind of ['tab', 'menu'] as const) {
      const sections = (kind === 'tab' ? manifest.tabs : manifest.menus) ?? [];
      const names = sections.map((section) => section.name);
      manifest.fields.forEach((field, index) => {
        const value = field[kind];
        if (value === undefined || names.includes(value)) return;
        issues.push(issue(file, ['fields', index, kind], {
          message: `${kind} "${value}" is not declared`,
          found: value,
          expected: names.length ? `one of: ${list(names)}` : `a ${kind} declared in "${kind}s"`,
          fix: `add { "name": "${value}", "label": "..." } to "${kind}s" or correct the name`,
        }));
      });
    }
    for (const visit of visitFields(manifest.fields)) {
      if (visit.depth > 0 && (visit.field.tab || visit.field.menu)) {
        issues.push(issue(file, [...visit.segments, visit.field.tab ? 'tab' : 'menu'], {
          message: 'sub-fields of objects are laid out with their parent and take no tab or menu',
          fix: 'move the tab or menu to the parent field',
        }));
      }
    }
  }
  return issues;
};

function collectI18nKeys(manifest: Manifest, enums: Record<string, string[]>): { key: string; segments: PathSegments }[] {
  const keys: { key: string; segments: PathSegments }[] = [];
  const add = (key: string | undefined, segments: PathSegments) => { if (key) keys.push({ key, segments }); };
  add(manifest.label, ['label']);
  add(manifest.labelPlural, ['labelPlural']);
  add(manifest.menu?.label, ['menu', 'label']);
  manifest.tabs?.forEach((tab, index) => add(tab.label, ['tabs', index, 'label']));
  manifest.menus?.forEach((menu, index) => add(menu.label, ['menus', index, 'label']));
  manifest.rowActions?.forEach((action, index) => add(action.label, ['rowActions', index, 'label']));
  manifest.filters?.forEach((filter, index) => add(filter.label, ['filters', index, 'label']));
  for (const { field, segments } of visitFields(manifest.fields)) {
    add(field.label, [...segments, 'label']);
    add(field.hint, [...segments, 'hint']);
    add(field.form?.placeholder, [...segments, 'form', 'placeholder']);
    for (const [rule, key] of Object.entries(field.validation?.messages ?? {})) add(key, [...segments, 'validation', 'messages', rule]);
    const values = field.values ?? (field.enum ? enums[field.enum] : undefined) ?? null;
    const labels = valueLabelsOf(field, values, [manifest.name, ...objectAncestors(manifest, segments)]);
    for (const [value, key] of Object.entries(labels ?? {})) {
      const overridden = field.valueLabels?.[value] !== undefined;
      add(key, [...segments, ...(overridden ? ['valueLabels', value] : [field.values ? 'values' : field.enum ? 'enum' : 'type'])]);
    }
  }
  return keys;
}

/** Names of the object fields enclosing the field at `segments` (fields.2.objectFields.0 -> [chats]). */
function objectAncestors(manifest: Manifest, segments: PathSegments): string[] {
  const names: string[] = [];
  let list = manifest.fields;
  for (let i = 1; i < segments.length - 1; i += 2) {
    const field = list[segments[i] as number];
    names.push(field.name);
    list = field.objectFields ?? [];
  }
  return names;
}

/** The README's command adding locale keys to es and en at once, with placeholders to translate. */
export function addLocaleKeysCommand(keys: readonly string[]): string {
  const texts = Object.fromEntries(keys.map((key) => [key, ['<español>', '<English>']]));
  return `npx tsx scripts/add-locale-keys.ts '${JSON.stringify(texts)}'`;
}

/** Every label, hint and message key a manifest uses exists in every locale file. */
const i18nKeysExist: ManifestRule = ({ manifests, locales, enums }) => {
  const issues: ManifestIssue[] = [];
  for (const { file, manifest } of manifests) {
    const seen = new Set<string>();
    for (const { key, segments } of collectI18nKeys(manifest, enums)) {
      if (seen.has(key)) continue;
      seen.add(key);
      const missing = Object.values(locales).filter((locale) => !locale.keys.has(key)).map((locale) => locale.file);
      if (missing.length === 0) continue;
      issues.push(issue(file, segments, {
        message: `locale key "${key}" is missing from ${missing.join(' and ')}`,
        found: key,
        fix: `add it to both locales in one step: ${addLocaleKeysCommand([key])}`,
        missingLocaleKey: key,
      }));
    }
  }
  return issues;
};

/** Both locale files hold the same keys, so no text silently falls back. */
const localesAgree: ManifestRule = ({ locales }) => {
  const entries = Object.values(locales);
  const issues: ManifestIssue[] = [];
  for (const locale of entries) {
    for (const other of entries) {
      if (other === locale) continue;
      const missing = [...other.keys].filter((key) => !locale.keys.has(key)).sort();
      if (missing.length === 0) continue;
      issues.push({
        file: locale.file,
        path: '',
        message: `${missing.length} key(s) present in ${other.file} are missing: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', ...' : ''}`,
        fix: `add the translations to ${locale.file}`,
      });
    }
  }
  return issues;
};

/** Filters, columns, export headers, default sort and the display field name real fields. */
const listedFieldsExist: ManifestRule = ({ manifests }) => {
  const issues: ManifestIssue[] = [];
  for (const { file, manifest } of manifests) {
    const known = knownColumnNames(manifest);
    const check = (name: string, segments: PathSegments, what: string) => {
      if (known.includes(name)) return;
      issues.push(issue(file, segments, {
        message: `${what} names an unknown field "${name}"`,
        found: name,
        expected: `one of: ${list(known)}`,
      }));
    };
    manifest.filters?.forEach((filter, index) => check(filter.field, ['filters', index, 'field'], 'the filter'));
    manifest.table?.columns?.forEach((name, index) => check(name, ['table', 'columns', index], 'the column'));
    manifest.export?.headers?.forEach((name, index) => check(name, ['export', 'headers', index], 'the export header'));
    if (manifest.table?.defaultSort) check(manifest.table.defaultSort.field, ['table', 'defaultSort', 'field'], 'the default sort');
    const secret = new Set(manifest.fields.filter((field) => field.secret).map((field) => field.name));
    manifest.table?.columns?.forEach((name, index) => {
      if (secret.has(name)) issues.push(issue(file, ['table', 'columns', index], { message: `"${name}" is secret and cannot be a column`, fix: 'remove it' }));
    });
    manifest.export?.headers?.forEach((name, index) => {
      if (secret.has(name)) issues.push(issue(file, ['export', 'headers', index], { message: `"${name}" is secret and cannot be exported`, fix: 'remove it' }));
    });
  }
  return issues;
};

/** The display field, shown wherever a ref points here, is a scalar field. */
const displayFieldIsScalar: ManifestRule = ({ manifests }) =>
  manifests.flatMap(({ file, manifest }) => {
    const name = manifest.displayField ?? 'name';
    const field = manifest.fields.find((f) => f.name === name);
    if (name === '_id' || (field && SCALAR_TYPES.has(field.type) && !field.secret)) return [];
    const candidates = manifest.fields.filter((f) => SCALAR_TYPES.has(f.type) && !f.secret).map((f) => f.name);
    return [issue(file, ['displayField'], {
      message: manifest.displayField ? `display field "${name}" is not a scalar field of this entity` : 'there is no "name" field to show in refs',
      found: manifest.displayField,
      expected: `one of: ${list(['_id', ...candidates])}`,
      fix: 'set "displayField" to the field that names a record',
    })];
  });

/** scope.owner names a ref field pointing at the user entity. */
const ownerIsUserRef: ManifestRule = ({ manifests }) =>
  manifests.flatMap(({ file, manifest }) => {
    const owner = manifest.scope?.owner;
    if (!owner) return [];
    const field = manifest.fields.find((f) => f.name === owner);
    if (field?.type === 'ref' && field.ref?.entity === 'user') return [];
    return [issue(file, ['scope', 'owner'], {
      message: `owner field "${owner}" must be a ref to the user entity`,
      found: field ? `${field.type}${field.ref ? ` -> ${field.ref.entity}` : ''}` : 'no such field',
      expected: '{ "type": "ref", "ref": { "entity": "user" } }',
    })];
  });

/**
 * scope.writes says, without contradiction, whether records are tenant-owned (each tenant writes
 * its own) or shared by every tenant (platform users only write them, e.g. a lookup table).
 */
const writeScopeConsistent: ManifestRule = ({ manifests }) =>
  manifests.flatMap(({ file, manifest }) => {
    const scope = manifest.scope ?? {};
    if (scope.writes === 'platform' && scope.tenant === true) {
      return [issue(file, ['scope', 'writes'], {
        message: 'ambiguous: "tenant": true makes records tenant-owned, "writes": "platform" makes them shared by every tenant',
        found: '"tenant": true, "writes": "platform"',
        expected: 'either { "tenant": true } (each tenant writes its own records) or { "writes": "platform" } (one table every tenant reads, only platform users write)',
        fix: 'remove "writes" for tenant-owned records, or remove "tenant" for a shared table',
      })];
    }
    if (scope.writes === 'platform' && scope.owner) {
      return [issue(file, ['scope', 'writes'], {
        message: `ambiguous: "owner": "${scope.owner}" lets users create their own records, "writes": "platform" lets only platform users write`,
        found: `"owner": "${scope.owner}", "writes": "platform"`,
        expected: 'no "owner" on a table only platform users write',
        fix: 'remove "owner", or make the records tenant-owned: { "tenant": true, "owner": ... } without "writes"',
      })];
    }
    if (scope.writes === 'tenant' && scope.tenant !== true) {
      return [issue(file, ['scope', 'writes'], {
        message: '"writes": "tenant" needs records that belong to a tenant',
        found: `"tenant": ${scope.tenant ?? false}, "writes": "tenant"`,
        expected: '{ "tenant": true } with "writes": "tenant" (or no "writes"), or "writes": "platform" for a shared table',
        fix: 'add "tenant": true, or set "writes": "platform"',
      })];
    }
    return [];
  });

/** ref.onDelete "clear" only on a field that may be empty and holds one id. */
const onDeleteFitsRef: ManifestRule = ({ manifests }) =>
  manifests.flatMap(({ file, manifest }) =>
    visitFields(manifest.fields).flatMap(({ field, segments, depth }) => {
      if (field.ref?.onDelete !== 'clear') return [];
      const required = field.validation?.required === true || field.validation?.requiredOnCreate === true;
      if (field.type === 'ref' && !required && depth === 0) return [];
      return [issue(file, [...segments, 'ref', 'onDelete'], {
        message: required
          ? `field "${field.name}" is required: deleting the record it points at cannot leave it empty`
          : `"clear" applies to a top-level "ref" field; "${field.name}" is ${depth > 0 ? 'inside an object' : `of type "${field.type}"`}`,
        found: 'clear',
        expected: '"restrict" (the default: the delete is refused while the field points at the record)',
        fix: required ? 'remove "onDelete" (or make the field optional)' : 'remove "onDelete"',
      })];
    }));

/** enum/array.enum fields name values or a shared enum that exists; other types carry neither. */
const enumsResolve: ManifestRule = ({ manifests, enums, enumsFile }) => {
  const issues: ManifestIssue[] = [];
  for (const [name, values] of Object.entries(enums)) {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name) || !Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string')) {
      issues.push({ file: enumsFile, path: name, message: 'a shared enum is a PascalCase name mapped to a non-empty list of strings', found: values });
    }
  }
  for (const { file, manifest } of manifests) {
    for (const { field, segments } of visitFields(manifest.fields)) {
      const isEnum = field.type === 'enum' || field.type === 'array.enum';
      if (!isEnum && (field.values || field.enum)) {
        issues.push(issue(file, [...segments, field.values ? 'values' : 'enum'], {
          message: `only enum and array.enum fields take values, this one is ${field.type}`,
          fix: 'remove it or change the type',
        }));
      }
      if (field.valueLabels) {
        const allowed = field.type === 'boolean' ? ['true', 'false'] : isEnum ? field.values ?? enums[field.enum ?? ''] ?? [] : null;
        if (!allowed) {
          issues.push(issue(file, [...segments, 'valueLabels'], {
            message: `valueLabels only apply to enum, array.enum and boolean fields, this one is ${field.type}`,
            fix: 'remove valueLabels or change the type',
          }));
        } else {
          for (const value of Object.keys(field.valueLabels).filter((v) => !allowed.includes(v))) {
            issues.push(issue(file, [...segments, 'valueLabels', value], {
              message: `"${value}" is not a value of this field`,
              found: value,
              expected: `one of: ${list(allowed)}`,
            }));
          }
        }
      }
      if (field.enum && !enums[field.enum]) {
        issues.push(issue(file, [...segments, 'enum'], {
          message: `no shared enum is named "${field.enum}"`,
          found: field.enum,
          expected: `one of: ${list(Object.keys(enums))} (declared in ${enumsFile})`,
        }));
      }
    }
  }
  return issues;
};

/** objectFields only on object types; validation keywords only where the type can honour them. */
const propertiesFitType: ManifestRule = ({ manifests }) => {
  const issues: ManifestIssue[] = [];
  for (const { file, manifest } of manifests) {
    for (const { field, segments } of visitFields(manifest.fields)) {
      const v = field.validation ?? {};
      const wrong = (key: string, allowed: string) =>
        issues.push(issue(file, [...segments, 'validation', key], {
          message: `"${key}" does not apply to a ${field.type} field`,
          expected: `a field of type ${allowed}`,
          fix: `remove "${key}" or change the type`,
        }));
      if (field.objectFields && field.type !== 'object' && field.type !== 'array.object') {
        issues.push(issue(file, [...segments, 'objectFields'], { message: `objectFields only apply to object and array.object, this is ${field.type}`, fix: 'remove objectFields or change the type' }));
      }
      for (const key of ['pattern', 'minLength', 'maxLength', 'format'] as const) {
        if (v[key] !== undefined && !STRING_TYPES.has(field.type)) wrong(key, list(STRING_TYPES));
      }
      for (const key of ['min', 'max', 'integer'] as const) {
        if (v[key] !== undefined && !NUMBER_TYPES.has(field.type)) wrong(key, list(NUMBER_TYPES));
      }
      for (const key of ['minItems', 'maxItems'] as const) {
        if (v[key] !== undefined && !LIST_TYPES.has(field.type)) wrong(key, list(LIST_TYPES));
      }
      if (v.min !== undefined && v.max !== undefined && v.min > v.max) {
        issues.push(issue(file, [...segments, 'validation'], { message: `min (${v.min}) is greater than max (${v.max})` }));
      }
      if (v.minLength !== undefined && v.maxLength !== undefined && v.minLength > v.maxLength) {
        issues.push(issue(file, [...segments, 'validation'], { message: `minLength (${v.minLength}) is greater than maxLength (${v.maxLength})` }));
      }
      if (field.column?.decimals !== undefined && field.column.formatter !== 'msToSeconds' && !NUMBER_TYPES.has(field.type)) {
        issues.push(issue(file, [...segments, 'column', 'decimals'], { message: 'decimals only apply to number fields' }));
      }
      if (field.secret && field.type !== 'password' && !field.readonly) {
        issues.push(issue(file, [...segments, 'secret'], {
          message: 'a secret field is either a password (written by clients) or readonly (set by the server)',
          fix: 'make it type password, or add "readonly": true',
        }));
      }
    }
  }
  return issues;
};

function defaultFits(field: ManifestField, value: unknown, enums: Record<string, string[]>): boolean {
  const values = field.values ?? (field.enum ? enums[field.enum] : undefined);
  if (field.storage === 'json') return true;
  // An unknown type is the meta-schema's to report (with the known names).
  if (!Object.hasOwn(FIELD_TYPE_REGISTRY, field.type)) return true;
  return fieldType(field.type).isValue(value, values ?? null);
}

/** A default value has the field's type (and is one of its values, for enums). */
const defaultsFitType: ManifestRule = ({ manifests, enums }) => {
  const issues: ManifestIssue[] = [];
  for (const { file, manifest } of manifests) {
    for (const { field, segments } of visitFields(manifest.fields)) {
      if (field.default === undefined || field.default === null || defaultFits(field, field.default, enums)) continue;
      issues.push(issue(file, [...segments, 'default'], {
        message: `the default does not fit a ${field.type} field`,
        found: field.default,
        expected: field.type === 'enum' ? `one of the field's values` : `a ${field.type} value`,
      }));
    }
  }
  return issues;
};

function checkCondition(
  file: string, condition: ManifestCondition, segments: PathSegments, siblings: ManifestField[],
  enums: Record<string, string[]>, issues: ManifestIssue[],
) {
  const target = siblings.find((f) => f.name === condition.field);
  if (!target) {
    issues.push(issue(file, [...segments, 'field'], {
      message: `visibleWhen names an unknown field "${condition.field}"`,
      found: condition.field,
      expected: `a field beside it: ${list(siblings.map((f) => f.name))}`,
    }));
    return;
  }
  const allowed = target.values ?? (target.enum ? enums[target.enum] : undefined);
  if (!allowed) return;
  const listed = condition.in ?? condition.notIn ?? [];
  listed.forEach((value, index) => {
    if (allowed.includes(String(value))) return;
    issues.push(issue(file, [...segments, condition.in ? 'in' : 'notIn', index], {
      message: `"${String(value)}" is not a value of ${target.name}`,
      found: value,
      expected: `one of: ${list(allowed)}`,
    }));
  });
}

/** visibleWhen conditions name a sibling field and values it can take. */
const conditionsResolve: ManifestRule = ({ manifests, enums }) => {
  const issues: ManifestIssue[] = [];
  for (const { file, manifest } of manifests) {
    for (const { field, segments, siblings } of visitFields(manifest.fields)) {
      if (field.visibleWhen) checkCondition(file, field.visibleWhen, [...segments, 'visibleWhen'], siblings, enums, issues);
    }
    for (const kind of ['tabs', 'menus'] as const) {
      manifest[kind]?.forEach((section, index) => {
        if (section.visibleWhen) checkCondition(file, section.visibleWhen, [kind, index, 'visibleWhen'], manifest.fields, enums, issues);
      });
    }
  }
  return issues;
};

/** Field, filter, row-action, section and menu permissions are ones some entity defines. */
const permissionsKnown: ManifestRule = ({ manifests }) => {
  const known = new Set<string>();
  for (const { manifest } of manifests) {
    const p = manifest.permissions ?? {};
    for (const action of ['manage', 'view', 'create', 'update', 'delete'] as const) known.add(p[action] ?? `${manifest.name}:${action}`);
    for (const extra of [p.viewOwn, p.createOwn, ...(p.extra ?? [])]) if (extra) known.add(extra);
  }
  const issues: ManifestIssue[] = [];
  const check = (file: string, value: string | undefined, segments: PathSegments) => {
    if (!value || known.has(value)) return;
    const [prefix] = value.split(':');
    issues.push(issue(file, segments, {
      message: `permission "${value}" is not defined by any entity`,
      found: value,
      expected: `one of: ${list([...known].filter((p) => p.startsWith(`${prefix}:`)).sort()) || list([...known].sort().slice(0, 12))}`,
      fix: 'correct it, or declare it in some manifest\'s permissions.extra',
    }));
  };
  for (const { file, manifest } of manifests) {
    check(file, manifest.route?.permission, ['route', 'permission']);
    check(file, manifest.menu?.permission, ['menu', 'permission']);
    manifest.filters?.forEach((f, i) => check(file, f.permission, ['filters', i, 'permission']));
    manifest.rowActions?.forEach((a, i) => check(file, a.permission, ['rowActions', i, 'permission']));
    manifest.tabs?.forEach((s, i) => check(file, s.permission, ['tabs', i, 'permission']));
    manifest.menus?.forEach((s, i) => check(file, s.permission, ['menus', i, 'permission']));
    for (const { field, segments } of visitFields(manifest.fields)) check(file, field.permission, [...segments, 'permission']);
  }
  return issues;
};

/** A flagged-off action must not be half-configured; a menu entry needs a route. */
const flagsConsistent: ManifestRule = ({ manifests }) =>
  manifests.flatMap(({ file, manifest }) => {
    const issues: ManifestIssue[] = [];
    if (manifest.flags?.exportable === false && manifest.export?.headers) {
      issues.push(issue(file, ['export'], { message: 'export settings are given but flags.exportable is false', fix: 'remove "export" or set flags.exportable to true' }));
    }
    if (manifest.flags?.importable === false && manifest.import) {
      issues.push(issue(file, ['import'], { message: 'import settings are given but flags.importable is false', fix: 'remove "import" or set flags.importable to true' }));
    }
    // A list that names a field its own opt-out leaves out says two things at once.
    manifest.fields.forEach((field) => {
      const at = (list: string[] | undefined) => list?.indexOf(field.name) ?? -1;
      const conflicts: [boolean, PathSegments, string, string][] = [
        [Boolean(field.column?.hidden) && at(manifest.table?.columns) >= 0, ['table', 'columns', at(manifest.table?.columns)], 'column.hidden', 'the table'],
        [field.exportable === false && at(manifest.export?.headers) >= 0, ['export', 'headers', at(manifest.export?.headers)], '"exportable": false', 'the export'],
      ];
      for (const [conflict, segments, optOut, where] of conflicts) {
        // A secret field listed gets its own message (listedFieldsExist).
        if (conflict && !field.secret) issues.push(issue(file, segments, { message: `"${field.name}" is listed, but its field says ${optOut}`, fix: `remove it from the list, or the opt-out, to ${where === 'the table' ? 'show' : 'export'} it in ${where}` }));
      }
      if (field.filter && field.filterable === false) {
        issues.push(issue(file, ['fields', manifest.fields.indexOf(field), 'filter'], { message: 'filter settings are given but the field says "filterable": false', fix: 'remove "filter", or "filterable": false' }));
      }
    });
    if (manifest.menu && !manifest.route) {
      issues.push(issue(file, ['menu'], { message: 'a menu entry needs a route to open', fix: 'add "route": { "path": "/crud/..." } or remove "menu"' }));
    }
    return issues;
  });

/** Menu and row-action icons are icons of @tabler/icons-react, which the console ships. */
const iconsExist: ManifestRule = ({ manifests, icons }) => {
  const issues: ManifestIssue[] = [];
  const check = (file: string, name: string | undefined, segments: PathSegments) => {
    if (name === undefined || icons.has(name)) return;
    const nearest = nearestNames(name, icons.keys(), 5);
    issues.push(issue(file, segments, {
      message: `there is no icon named "${name}"`,
      found: name,
      expected: `an icon name of @tabler/icons-react (https://tabler.io/icons, kebab-case), the nearest: ${list(nearest)}`,
      suggestion: nearestName(name, icons.keys()),
      fix: 'use one of the names above, or look one up at https://tabler.io/icons',
    }));
  };
  for (const { file, manifest } of manifests) {
    check(file, manifest.menu?.icon, ['menu', 'icon']);
    manifest.rowActions?.forEach((action, index) => check(file, action.icon, ['rowActions', index, 'icon']));
  }
  return issues;
};

export const manifestRules = {
  uniqueEntityIdentity,
  fileNamedForEntity,
  uniqueFieldNames,
  refsResolve,
  sectionsExist,
  i18nKeysExist,
  localesAgree,
  listedFieldsExist,
  displayFieldIsScalar,
  ownerIsUserRef,
  writeScopeConsistent,
  onDeleteFitsRef,
  enumsResolve,
  propertiesFitType,
  defaultsFitType,
  conditionsResolve,
  permissionsKnown,
  flagsConsistent,
  iconsExist,
} satisfies Record<string, ManifestRule>;

export type ManifestRuleName = keyof typeof manifestRules;

export function runRules(context: RuleContext): ManifestIssue[] {
  return Object.values(manifestRules).flatMap((rule) => rule(context));
}

export type { LoadedManifest };
