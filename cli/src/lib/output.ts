import { ApiError, CliError } from './errors.js';

/**
 * Where a command's words go. Results go to stdout: a human sentence, or with --json one JSON document a
 * script can parse. Everything else (progress, notices, errors) goes to stderr, so stdout stays clean.
 */
export class Output {
  constructor(readonly json: boolean) {}

  /** The command's result: `human()` only runs without --json. */
  result(data: unknown, human: () => string): void {
    process.stdout.write(this.json ? `${JSON.stringify(data)}\n` : `${human()}\n`);
  }

  notice(message: string): void {
    if (!this.json) process.stderr.write(`${message}\n`);
  }

  /** A failure: its message, or with --json `{ "error": { message, statusCode?, code? } }`, on stderr. */
  error(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (!this.json) {
      process.stderr.write(`Error: ${message}\n`);
      return;
    }
    const details = error instanceof ApiError ? { statusCode: error.statusCode, code: error.code } : {};
    const exitCode = error instanceof CliError ? error.exitCode : undefined;
    process.stderr.write(`${JSON.stringify({ error: { message, ...details, exitCode } })}\n`);
  }
}
