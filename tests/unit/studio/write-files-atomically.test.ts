import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { studioPath, writeFilesAtomically, type FileSystemSteps } from '../../../server/studio/studio-files.ts';

/** The studio's write: all files or none, never half a file, never outside manifests/ and locales/. */
let root = '';
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function project(): string {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-studio-unit-'));
  fs.mkdirSync(path.join(root, 'manifests'));
  fs.mkdirSync(path.join(root, 'locales'));
  fs.writeFileSync(path.join(root, 'manifests', 'faq.json'), 'old manifest');
  fs.writeFileSync(path.join(root, 'locales', 'es.json'), 'old es');
  fs.writeFileSync(path.join(root, 'locales', 'en.json'), 'old en');
  return root;
}
const read = (file: string) => (fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : null);
const leftovers = () => ['manifests', 'locales'].flatMap((d) => fs.readdirSync(path.join(root, d)).filter((f) => f.includes('.tmp')));

const real: FileSystemSteps = {
  writeFile: (file, text) => fs.writeFileSync(file, text, { flag: 'wx' }),
  rename: (from, to) => fs.renameSync(from, to),
  unlink: (file) => fs.rmSync(file, { force: true }),
};

describe('writeFilesAtomically', () => {
  const files = () => new Map([['locales/es.json', 'new es'], ['locales/en.json', 'new en'], ['manifests/faq.json', 'new manifest'], ['manifests/other.json', 'new other']]);

  it('writes every file', () => {
    project();
    writeFilesAtomically(root, files());
    expect([read('locales/es.json'), read('locales/en.json'), read('manifests/faq.json'), read('manifests/other.json')]).toEqual(['new es', 'new en', 'new manifest', 'new other']);
    expect(leftovers()).toEqual([]);
  });

  // A failure at each step of each file: the files are as before, no temporary file is left.
  for (const [step, at] of [['writeFile', 0], ['writeFile', 3], ['rename', 0], ['rename', 1], ['rename', 2], ['rename', 3]] as const) {
    it(`leaves every file as it was when ${step} #${at + 1} fails`, () => {
      project();
      let calls = 0;
      const failing: FileSystemSteps = {
        ...real,
        [step]: (...args: [string, string]) => {
          if (calls++ === at) throw new Error('disk full');
          return (real[step] as (a: string, b: string) => void)(...args);
        },
      };
      expect(() => writeFilesAtomically(root, files(), failing)).toThrow('disk full');
      expect([read('locales/es.json'), read('locales/en.json'), read('manifests/faq.json'), read('manifests/other.json')]).toEqual(['old es', 'old en', 'old manifest', null]);
      expect(leftovers()).toEqual([]);
    });
  }

  it('refuses any target outside manifests/<entity>.json and locales/{es,en}.json, writing nothing', () => {
    project();
    fs.symlinkSync(os.tmpdir(), path.join(root, 'manifests', 'link.json'));
    for (const target of ['package.json', '../x.json', 'manifests/../package.json', 'manifests/enums.json', 'manifests/manifest.schema.json', 'locales/fr.json', 'manifests/sub/x.json', 'manifests/x.txt', '/etc/passwd', 'manifests/link.json']) {
      expect(studioPath(root, target), target).toBeNull();
      expect(() => writeFilesAtomically(root, new Map([['manifests/faq.json', 'changed'], [target, 'x']]))).toThrow(/writes only/);
    }
    expect(read('manifests/faq.json')).toBe('old manifest');
  });

  it('refuses a manifests folder that is a link to elsewhere', () => {
    project();
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-studio-elsewhere-'));
    try {
      fs.rmSync(path.join(root, 'manifests'), { recursive: true });
      fs.symlinkSync(elsewhere, path.join(root, 'manifests'));
      expect(studioPath(root, 'manifests/faq.json')).toBeNull();
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
