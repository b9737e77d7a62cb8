import { HttpError } from '../http/http-error.ts';
import { RagError, type RagErrorCode } from '../rag/rag-error.ts';
import { cpuTaskHandlers, type CpuTaskName } from './cpu-task-handlers.ts';

/** A refusal computed in the worker, rebuilt as the same error class on the main thread. */
export type CpuTaskFailure =
  | { kind: 'rag'; code: RagErrorCode; message: string; field?: string }
  | { kind: 'http'; statusCode: number; message: string; i18nMessage?: string };

export type CpuTaskOutcome = { ok: true; value: unknown } | { ok: false; failure: CpuTaskFailure };

/**
 * The worker pool's entry (piscina loads its default export; bundled as dist-server/cpu-worker.mjs,
 * under tsx through cpu-worker-tsx.mjs). A RagError or HttpError (a bad file) comes back as data,
 * because errors cross threads without their class and fields; anything else is a bug and is
 * thrown as it is.
 */
export default async function runTask(message: { name: CpuTaskName; input: never }): Promise<CpuTaskOutcome> {
  const handler = cpuTaskHandlers[message.name] as ((input: never) => unknown) | undefined;
  if (!handler) throw new Error(`Unknown worker task "${String(message.name)}"; known: ${Object.keys(cpuTaskHandlers).join(', ')}`);
  try {
    return { ok: true, value: await handler(message.input) };
  } catch (error) {
    if (error instanceof RagError) return { ok: false, failure: { kind: 'rag', code: error.code, message: error.message, field: error.field } };
    if (error instanceof HttpError) {
      return { ok: false, failure: { kind: 'http', statusCode: error.statusCode, message: error.message, i18nMessage: error.i18nMessage } };
    }
    throw error;
  }
}
