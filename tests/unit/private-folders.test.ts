import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRIVATE_FOLDERS, isPrivateFolder, privateFolder, type PrivateFolder } from '../../server/files/private-folders.ts';
import { createMailer } from '../../server/identity/mailer.ts';

/** Issue 31 item 5: one list of private DATA_DIR folders, and no path of theirs in the log. */
describe('private DATA_DIR folders', () => {
  it('every spelling of a private folder is private; upload folders are not', () => {
    for (const name of Object.keys(PRIVATE_FOLDERS)) {
      for (const variant of [name, name.toUpperCase(), name[0].toUpperCase() + name.slice(1), `${name}.`, `${name} `, `${name}..`]) {
        expect(isPrivateFolder(variant), variant).toBe(true);
      }
    }
    for (const open of ['files', 'avatars', 'outboxes', 'my-exports', 'secret', 'job_uploads']) expect(isPrivateFolder(open), open).toBe(false);
  });

  it('privateFolder refuses a folder missing from the list, naming where to declare it', () => {
    expect(privateFolder('/data', 'outbox')).toBe(path.join('/data', 'outbox'));
    expect(() => privateFolder('/data', 'drafts' as PrivateFolder)).toThrow(/declare it in PRIVATE_FOLDERS \(server\/files\/private-folders.ts\)/);
  });

  it('no server module names a DATA_DIR folder of its own outside the list', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.ts') && !file.endsWith('private-folders.ts')) {
          const text = fs.readFileSync(file, 'utf8');
          // A folder joined straight onto the data dir (a file at its root, such as forja.db, has an extension).
          for (const match of text.matchAll(/path\.join\([\w.]*dataDir, '([^'.]+)'/gi)) offenders.push(`${path.relative(process.cwd(), file)}: ${match[1]}`);
        }
      }
    };
    walk(path.resolve('server'));
    expect(offenders).toEqual([]);
  });

  it('a mail written to the outbox is logged without its file name or path', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-outbox-'));
    try {
      const logged: string[] = [];
      const mailer = createMailer({ smtp: null, outboxDir: path.join(dir, 'outbox'), logger: { info: (object, message) => logged.push(JSON.stringify(object) + message) } });
      const sent = await mailer.send({ to: 'ana@example.com', subject: 'Recovery', text: 'code 123456' });
      const name = fs.readdirSync(path.join(dir, 'outbox'))[0];
      expect(name).toMatch(/\.eml$/);
      expect(logged).toHaveLength(1);
      for (const secret of [name, name.replace(/\.eml$/, ''), dir, '123456']) expect(logged[0]).not.toContain(secret);
      expect(sent.delivery).toBe('outbox');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
