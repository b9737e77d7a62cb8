// Scaffolds a new entity: manifests/<name>.json with one "name" field, and its locale keys in
// both locale files. Usage: npm run new-entity -- <name> [--root DIR]
// Then: add fields to the manifest, translate the texts, `npm run generate`, `npm start`.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { addLocaleKeys } from './add-locale-keys.ts';
import { newEntityManifest } from '../contract/model/new-entity-manifest.ts';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? path.resolve(args.splice(rootAt, 2)[1] ?? '.') : path.resolve(import.meta.dirname, '..');
const name = args[0] ?? '';

function fail(message: string): never {
  console.error(`✖ ${message}\n\nUsage: npm run new-entity -- <name>   (e.g. npm run new-entity -- faq)`);
  process.exit(1);
}

if (!/^[a-z][a-zA-Z0-9]*$/.test(name)) fail(`"${name}" is not an entity name: start with a lower-case letter, then letters and digits (camelCase), e.g. faq or faqItem`);
const file = path.join(root, 'manifests', `${name}.json`);
const taken = readdirSync(path.join(root, 'manifests')).find((entry) => entry.toLowerCase() === `${name.toLowerCase()}.json`);
if (taken || existsSync(file)) fail(`manifests/${taken ?? `${name}.json`} already exists: pick another name or edit that manifest`);

const words = name.replace(/([A-Z])/g, ' $1').toLowerCase();
const title = words.charAt(0).toUpperCase() + words.slice(1);
const manifest = newEntityManifest(name, { group: 'admin', icon: 'file-text' });
// The generator refuses a base path, table or route another entity already uses; say so now.
for (const entry of readdirSync(path.join(root, 'manifests')).filter((f) => f.endsWith('.json') && f !== 'manifest.schema.json' && f !== 'enums.json')) {
  const other = JSON.parse(readFileSync(path.join(root, 'manifests', entry), 'utf8')) as { dbTable?: string; api?: { basePath?: string } };
  if (other.dbTable === manifest.dbTable || other.api?.basePath === manifest.api.basePath) {
    fail(`manifests/${entry} already uses the table "${manifest.dbTable}" or the path "${manifest.api.basePath}": pick another name`);
  }
}
writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
addLocaleKeys(root, {
  [`entity.${name}.label`]: [title, title],
  [`entity.${name}.plural`]: [`${title}s`, `${title}s`],
  [`field.${name}.name`]: ['Nombre', 'Name'],
});
console.log(`✔ wrote manifests/${name}.json and 3 locale keys (entity.${name}.label, entity.${name}.plural, field.${name}.name) to locales/es.json and locales/en.json

Next:
  1. add fields to manifests/${name}.json (see "Adding a field to an entity" in README.md) and
     their labels: npx tsx scripts/add-locale-keys.ts '{"field.${name}.<field>": ["<español>", "<English>"]}'
  2. translate the texts of entity.${name}.* in locales/es.json and locales/en.json
  3. npm run generate
  4. npm start (the list is at ${manifest.route.path}, the API at ${manifest.api.basePath})`);
