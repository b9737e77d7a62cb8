/**
 * A start-up refusal an operator can act on: `message` names the variable and what is wrong with
 * it (one line), `fix` says what to do. server/main.ts prints both, without a stack trace unless
 * LOG_LEVEL is debug or trace, and exits with code 1.
 */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly fix: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StartupError';
  }
}
