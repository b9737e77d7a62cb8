import { runOnce } from '../generator/cli.ts';

/**
 * The first step of `npm start` and `npm run server`: the generator runs over manifests/ and
 * locales/ and rewrites the artefacts in src/generated/ and server/generated/ that differ (only
 * those, so an unchanged model leaves every file and its modification time alone, and the
 * console and server builds that follow see exactly what changed). A manifest it cannot honour
 * stops the start: its messages are printed and false is returned, before anything is built or
 * served.
 */
export function prepareModel(root: string, log: (line: string) => void = console.log): boolean {
  log('[start] checking the manifests and locales (npm run generate)');
  const code = runOnce({ root, check: false, watch: false, plan: false, quiet: true });
  if (code === 0) return true;
  log('[start] not starting: the manifests above cannot be served. Fix them, then start again (npm run generate shows the same messages).');
  return false;
}
