import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

// findBy*/waitFor wait for a state; the default 1 s cap is a guess at the machine's speed, which a
// 2-core CI machine running two test files at once (vitest.config.ts, maxWorkers) can miss while a
// Mantine dialog renders. The cap only bounds how long a failing wait takes to fail.
configure({ asyncUtilTimeout: 5_000 });
