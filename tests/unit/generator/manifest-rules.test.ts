import { describe, expect, test } from 'vitest';
import { manifestRules } from '../../../generator/validate/manifest-rules.ts';
import { manifest, messagesAfter, realInput, issuesOf } from './fixture.ts';
import { generate } from '../../../generator/generate.ts';
import { metaSchema } from './fixture.ts';

// Each rule of the generator, fed a manifest broken in the one way it guards against, must
// answer with this exact text: file, JSON path, what was found, what was expected, the fix.

describe('the shipped manifests', () => {
  test('all validate and build', () => {
    const { models } = generate(realInput(), metaSchema);
    expect(Object.keys(models)).toEqual([
      'bot', 'bottrace', 'bottracestatus', 'contact', 'conversation', 'knowledge',
      'knowledgesource', 'role', 'setting', 'tenant', 'user', 'userApiKey',
    ]);
  });
});

describe('meta-schema', () => {
  test('an unknown field type', () => {
    expect(messagesAfter('bot', (m) => { m.fields[2].type = 'reference'; })).toEqual([
      `manifests/bot.json: fields[knowledge].type: value is not allowed
  found:    "reference"
  expected: one of: "string", "longString", "password", "enum", "number", "file", "fullFile", "boolean", "date", "ref", "object", "array.string", "array.enum", "array.number", "array.ref", "array.object"`,
    ]);
  });

  test('a mistyped value gets the nearest valid one', () => {
    expect(messagesAfter('contact', (m) => { m.fields[1].type = 'strng'; })).toEqual([
      `manifests/contact.json: fields[email].type: value is not allowed
  found:    "strng"
  expected: one of: "string", "longString", "password", "enum", "number", "file", "fullFile", "boolean", "date", "ref", "object", "array.string", "array.enum", "array.number", "array.ref", "array.object"
  did you mean "string"?`,
    ]);
  });

  test('an unknown property', () => {
    expect(messagesAfter('bot', (m) => { m.fields[0].colour = 'red'; })).toEqual([
      `manifests/bot.json: fields[name].colour: unknown property "colour"
  expected: one of: name, type, label, hint, persistentHint, default, readonly, secret, permission, tab, menu, visibleWhen, values, enum, valueLabels, ref, objectFields, validation, searchable, sortable, filterable, filter, exportable, importable, indexed, column, form, storage, renamedFrom
  fix:      remove "colour" or correct its spelling`,
    ]);
    expect(messagesAfter('bot', (m) => { m.fields[0].serchable = true; })).toEqual([
      `manifests/bot.json: fields[name].serchable: unknown property "serchable"
  expected: one of: name, type, label, hint, persistentHint, default, readonly, secret, permission, tab, menu, visibleWhen, values, enum, valueLabels, ref, objectFields, validation, searchable, sortable, filterable, filter, exportable, importable, indexed, column, form, storage, renamedFrom
  did you mean "searchable"?
  fix:      remove "serchable" or correct its spelling`,
    ]);
  });

  test('a missing required property', () => {
    expect(messagesAfter('bot', (m) => { delete m.api.basePath; })).toEqual([
      `manifests/bot.json: api.basePath: required property "basePath" is missing
  expected: REST base path, e.g. /api/bots.
  fix:      add "basePath"`,
    ]);
  });

  test('a value of the wrong form', () => {
    expect(messagesAfter('bot', (m) => { m.api.basePath = 'api/bots'; })).toEqual([
      `manifests/bot.json: api.basePath: value does not match the required form
  found:    "api/bots"
  expected: REST base path, e.g. /api/bots. (pattern ^/api(/[a-z0-9-]+)+$)`,
    ]);
  });

  test('a ref field without its target', () => {
    expect(messagesAfter('bot', (m) => { delete m.fields[2].ref; })).toEqual([
      `manifests/bot.json: fields[knowledge].ref: required property "ref" is missing
  fix:      add "ref"`,
    ]);
  });

  test('several broken manifests are all reported at once', () => {
    const input = realInput();
    (input.manifests.find((m) => m.file === 'manifests/bot.json')!.json as any).fields[0].type = 'text';
    (input.manifests.find((m) => m.file === 'manifests/tenant.json')!.json as any).dbTable = 'Tenants';
    expect(issuesOf(input).map((i) => `${i.file}: ${i.path}`)).toEqual([
      'manifests/bot.json: fields[name].type',
      'manifests/tenant.json: dbTable',
    ]);
  });
});

const ruleCases: Record<keyof typeof manifestRules, { entity: string; breakIt: (m: any, input: any) => void; expected: string }> = {
  uniqueEntityIdentity: {
    entity: 'contact',
    breakIt: (m) => { m.dbTable = 'bots'; },
    expected: `manifests/contact.json: dbTable: "bots" is already used by manifests/bot.json
  found:    "bots"
  expected: a dbTable no other manifest uses
  fix:      rename it in one of manifests/bot.json and manifests/contact.json`,
  },
  fileNamedForEntity: {
    entity: 'tenant',
    breakIt: (m) => { m.name = 'organisation'; },
    expected: `manifests/tenant.json: name: the entity name does not match the file name
  found:    "organisation"
  expected: "tenant" (any letter case), as the file is manifests/tenant.json
  fix:      rename the file to manifests/organisation.json or the entity to "tenant"`,
  },
  uniqueFieldNames: {
    entity: 'bot',
    // The copy goes second, so the message does not move when bot.json gains a field.
    breakIt: (m) => { m.fields.splice(1, 0, { ...m.fields[0] }); },
    expected: `manifests/bot.json: fields[1].name: field name "name" is already used by fields[0]
  found:    "name"
  expected: a name unique within its list
  fix:      rename or remove one of the two fields`,
  },
  refsResolve: {
    entity: 'bot',
    breakIt: (m) => { m.fields[2].ref.entity = 'knowlege'; },
    expected: `manifests/bot.json: fields[knowledge].ref.entity: no entity is named "knowlege"
  found:    "knowlege"
  expected: one of: bot, bottrace, bottracestatus, contact, conversation, knowledge, knowledgesource, role, setting, tenant, user, userApiKey
  did you mean "knowledge"?
  fix:      correct the entity name or add its manifest`,
  },
  sectionsExist: {
    entity: 'knowledgeSource',
    breakIt: (m) => { m.fields.find((f: any) => f.name === 'sourceText').tab = 'source'; },
    expected: `manifests/knowledgeSource.json: fields[sourceText].tab: tab "source" is not declared
  found:    "source"
  expected: one of: sourceText, editedText, chunks
  fix:      add { "name": "source", "label": "..." } to "tabs" or correct the name`,
  },
  i18nKeysExist: {
    entity: 'bot',
    breakIt: (m) => { m.fields[0].label = 'field.bot.nombre'; },
    expected: `manifests/bot.json: fields[name].label: locale key "field.bot.nombre" is missing from locales/es.json and locales/en.json
  found:    "field.bot.nombre"
  fix:      add it to both locales in one step: npx tsx scripts/add-locale-keys.ts '{"field.bot.nombre":["<español>","<English>"]}'`,
  },
  localesAgree: {
    entity: 'bot',
    breakIt: (_m, input) => { input.locales.en.json.common.extraKey = 'x'; },
    expected: `locales/es.json: 1 key(s) present in locales/en.json are missing: common.extraKey
  fix:      add the translations to locales/es.json`,
  },
  listedFieldsExist: {
    entity: 'botTrace',
    breakIt: (m) => { m.filters[0].field = 'state'; },
    expected: `manifests/botTrace.json: filters[0].field: the filter names an unknown field "state"
  found:    "state"
  expected: one of: status, bot, conversation, chatId, userMessage, assistantMessage, reaction, knowledgeBaseQuery, knowledgeBase, citations, provider, model, inputTokens, outputTokens, tokens, latency, _id, createdAt, updatedAt`,
  },
  displayFieldIsScalar: {
    entity: 'tenant',
    breakIt: (m) => { m.displayField = 'createdBy'; },
    expected: `manifests/tenant.json: displayField: display field "createdBy" is not a scalar field of this entity
  found:    "createdBy"
  expected: one of: _id, name
  fix:      set "displayField" to the field that names a record`,
  },
  ownerIsUserRef: {
    entity: 'knowledge',
    breakIt: (m) => { m.scope.owner = 'name'; },
    expected: `manifests/knowledge.json: scope.owner: owner field "name" must be a ref to the user entity
  found:    "string"
  expected: { "type": "ref", "ref": { "entity": "user" } }`,
  },
  writeScopeConsistent: {
    entity: 'botTraceStatus',
    breakIt: (m) => { m.scope.tenant = true; },
    expected: `manifests/botTraceStatus.json: scope.writes: ambiguous: "tenant": true makes records tenant-owned, "writes": "platform" makes them shared by every tenant
  found:    "\\"tenant\\": true, \\"writes\\": \\"platform\\""
  expected: either { "tenant": true } (each tenant writes its own records) or { "writes": "platform" } (one table every tenant reads, only platform users write)
  fix:      remove "writes" for tenant-owned records, or remove "tenant" for a shared table`,
  },
  onDeleteFitsRef: {
    entity: 'botTrace',
    breakIt: (m) => { m.fields.find((f: any) => f.name === 'status').ref.onDelete = 'clear'; },
    expected: `manifests/botTrace.json: fields[status].ref.onDelete: field "status" is required: deleting the record it points at cannot leave it empty
  found:    "clear"
  expected: "restrict" (the default: the delete is refused while the field points at the record)
  fix:      remove "onDelete" (or make the field optional)`,
  },
  enumsResolve: {
    entity: 'botTrace',
    breakIt: (m) => { m.fields.find((f: any) => f.name === 'reaction').enum = 'Reactions'; },
    expected: `manifests/botTrace.json: fields[reaction].enum: no shared enum is named "Reactions"
  found:    "Reactions"
  expected: one of: Language, Reaction (declared in manifests/enums.json)
  did you mean "Reaction"?`,
  },
  propertiesFitType: {
    entity: 'bot',
    breakIt: (m) => { m.fields[0].validation.min = 3; },
    expected: `manifests/bot.json: fields[name].validation.min: "min" does not apply to a string field
  expected: a field of type number, array.number
  fix:      remove "min" or change the type`,
  },
  defaultsFitType: {
    entity: 'knowledge',
    breakIt: (m) => { m.fields.find((f: any) => f.name === 'maxResults').default = 'five'; },
    expected: `manifests/knowledge.json: fields[maxResults].default: the default does not fit a number field
  found:    "five"
  expected: a number value`,
  },
  conditionsResolve: {
    entity: 'knowledgeSource',
    breakIt: (m) => { m.fields.find((f: any) => f.name === 'file').visibleWhen.in = ['pdf']; },
    expected: `manifests/knowledgeSource.json: fields[file].visibleWhen.in[0]: "pdf" is not a value of type
  found:    "pdf"
  expected: one of: file, link, text, chunk`,
  },
  permissionsKnown: {
    entity: 'bot',
    breakIt: (m) => { m.fields[0].permission = 'bot:admin'; },
    expected: `manifests/bot.json: fields[name].permission: permission "bot:admin" is not defined by any entity
  found:    "bot:admin"
  expected: one of: bot:create, bot:delete, bot:manage, bot:update, bot:view
  fix:      correct it, or declare it in some manifest's permissions.extra`,
  },
  iconsExist: {
    entity: 'contact',
    breakIt: (m) => { m.menu.icon = 'hlep'; },
    expected: `manifests/contact.json: menu.icon: there is no icon named "hlep"
  found:    "hlep"
  expected: an icon name of @tabler/icons-react (https://tabler.io/icons, kebab-case), the nearest: help, clef, ce, alt, axe
  did you mean "help"?
  fix:      use one of the names above, or look one up at https://tabler.io/icons`,
  },
  flagsConsistent: {
    entity: 'conversation',
    breakIt: (m) => { m.import = { formats: ['CSV'] }; },
    expected: `manifests/conversation.json: import: import settings are given but flags.importable is false
  fix:      remove "import" or set flags.importable to true`,
  },
};

describe('cross-manifest rules', () => {
  test('every rule has a case here', () => {
    expect(Object.keys(ruleCases).sort()).toEqual(Object.keys(manifestRules).sort());
  });

  for (const [rule, { entity, breakIt, expected }] of Object.entries(ruleCases)) {
    test(rule, () => {
      expect(messagesAfter(entity, breakIt)).toContain(expected);
    });
  }

  test('who writes an entity is never ambiguous (scope.writes)', () => {
    const paths = (name: string, breakIt: (m: any) => void) => messagesAfter(name, breakIt).map((m) => m.split('\n')[0]);
    expect(paths('knowledge', (m) => { m.scope = { owner: 'user', writes: 'platform' }; })).toEqual([
      'manifests/knowledge.json: scope.writes: ambiguous: "owner": "user" lets users create their own records, "writes": "platform" lets only platform users write',
    ]);
    expect(paths('botTraceStatus', (m) => { m.scope = { writes: 'tenant' }; })).toEqual([
      'manifests/botTraceStatus.json: scope.writes: "writes": "tenant" needs records that belong to a tenant',
    ]);
    expect(paths('bot', (m) => { m.scope = { tenant: true, writes: 'platform' }; })[0]).toMatch(/^manifests\/bot.json: scope.writes: ambiguous/);
    expect(paths('bot', (m) => { m.scope.writes = 'everyone'; })[0]).toMatch(/^manifests\/bot.json: scope.writes: value is not allowed/);
    // Consistent declarations pass, and a table without tenants is platform-written by default.
    const input = realInput();
    manifest(input, 'bot').scope = { tenant: true, writes: 'tenant' };
    delete manifest(input, 'botTraceStatus').scope;
    const { models } = generate(input, metaSchema);
    expect([models.bot.scope.writes, models.bottracestatus.scope.writes, models.role.scope.writes, models.contact.scope.writes]).toEqual(['tenant', 'platform', 'platform', 'tenant']);
  });

  test('ref.onDelete "clear" only on an optional single ref', () => {
    const first = (name: string, breakIt: (m: any) => void) => messagesAfter(name, breakIt).map((m) => m.split('\n')[0]);
    expect(first('role', (m) => { m.fields[1].ref.onDelete = 'clear'; })).toEqual([
      'manifests/role.json: fields[childRoles].ref.onDelete: "clear" applies to a top-level "ref" field; "childRoles" is of type "array.ref"',
    ]);
    expect(first('conversation', (m) => { m.fields.find((f: any) => f.name === 'bot').ref.onDelete = 'clear'; })[0]).toMatch(/field "bot" is required/);
    expect(first('bot', (m) => { m.fields[2].ref.onDelete = 'cascade'; })[0]).toMatch(/^manifests\/bot.json: fields\[knowledge\].ref.onDelete: value is not allowed/);
    const { models } = generate(realInput(), metaSchema);
    expect(models.bottrace.fields.find((f) => f.name === 'conversation')!.ref!.onDelete).toBe('clear');
    expect(models.bottrace.fields.find((f) => f.name === 'status')!.ref!.onDelete).toBe('restrict');
  });

  test('a system field cannot be redeclared', () => {
    expect(messagesAfter('bot', (m) => { m.fields.push({ name: 'createdAt', type: 'date', label: 'field.bot.name' }); })).toEqual([
      `manifests/bot.json: fields[createdAt].name: "createdAt" is a system field every record already has
  found:    "createdAt"
  fix:      remove the field; _id, createdAt and updatedAt are implicit`,
    ]);
  });

  test('a ref display field must exist on the target', () => {
    expect(messagesAfter('bot', (m) => { m.fields[2].ref.display = 'title'; })).toEqual([
      `manifests/bot.json: fields[knowledge].ref.display: entity "knowledge" has no field "title"
  found:    "title"
  expected: a field of manifests/knowledge.json: name, toolDescription, maxResults, scoreThreshold, language, sources, texts, files, urls, user, trainingState, indexState, trainedAt, trainedChunks, trainingProblems, trainedSources, _id, createdAt, updatedAt`,
    ]);
  });

  test('enum value labels must be translated', () => {
    expect(messagesAfter('knowledgeSource', (m) => { m.fields[1].values.push('video'); })).toEqual([
      `manifests/knowledgeSource.json: fields[type].values: locale key "enum.knowledgesource.type.video" is missing from locales/es.json and locales/en.json
  found:    "enum.knowledgesource.type.video"
  fix:      add it to both locales in one step: npx tsx scripts/add-locale-keys.ts '{"enum.knowledgesource.type.video":["<español>","<English>"]}'`,
    ]);
  });

  test('any Tabler icon is accepted for a menu or a row action, and is imported by the generated table', () => {
    const input = realInput();
    manifest(input, 'contact').menu.icon = 'help';
    manifest(input, 'contact').rowActions[0].icon = 'a-b-2';
    const icons = generate(input, metaSchema).files.get('src/generated/icons.ts')!;
    expect(icons).toContain('"help": IconHelp,');
    expect(icons).toContain('"a-b-2": IconAB2,');
    expect(icons).toMatch(/^import \{ [^}]*\bIconHelp\b[^}]*\} from '@tabler\/icons-react';$/m);
    expect(icons).not.toContain('IconGitMerge');
  });

  test('a row action icon typo names the row action and the nearest icon', () => {
    for (const [typo, meant] of [['lokc', 'lock'], ['lck', 'lock'], ['qr-code', 'qrcode']]) {
      const messages = messagesAfter('user', (m) => { m.rowActions[0].icon = typo; });
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(new RegExp(`^manifests/user\\.json: rowActions\\[changePassword\\]\\.icon: there is no icon named "${typo}"\n`));
      expect(messages[0]).toContain(`did you mean "${meant}"?`);
    }
  });

  test('a list naming a field that opts out of it, and opt-outs that contradict, are refused', () => {
    expect(messagesAfter('contact', (m) => { m.fields[0].column = { hidden: true }; })).toEqual([
      `manifests/contact.json: table.columns[0]: "name" is listed, but its field says column.hidden
  fix:      remove it from the list, or the opt-out, to show it in the table`,
    ]);
    expect(messagesAfter('contact', (m) => { m.fields[1].exportable = false; })).toEqual([
      `manifests/contact.json: export.headers[1]: "email" is listed, but its field says "exportable": false
  fix:      remove it from the list, or the opt-out, to export it in the export`,
    ]);
    expect(messagesAfter('contact', (m) => { m.fields[0].filter = { operator: 'eq' }; })).toEqual([
      `manifests/contact.json: fields[name].filter: filter settings are given but the field says "filterable": false
  fix:      remove "filter", or "filterable": false`,
    ]);
  });

  test('a secret field can be neither a column nor exported', () => {
    const messages = messagesAfter('user', (m) => { m.table.columns.push('password'); });
    expect(messages).toEqual([
      `manifests/user.json: table.columns[6]: "password" is secret and cannot be a column
  fix:      remove it`,
    ]);
  });
});
