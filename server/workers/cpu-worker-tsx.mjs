// The worker pool's entry when the server runs from its TypeScript sources (tsx, vitest): a worker
// thread starts without the parent's loader hooks, so tsx is registered here before the .ts entry
// is imported. The bundle (npm start) loads dist-server/cpu-worker.mjs instead and never this file.
import { register } from 'tsx/esm/api';

register();
const entry = await import('./cpu-worker.ts');

export default entry.default;
