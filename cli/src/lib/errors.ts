/** Exit codes: 0 ok, 1 the operation failed, 2 the command line was wrong (commander's usage errors too). */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A failure the user can read: printed as its message alone (no stack) and mapped to an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: typeof EXIT_FAILURE | typeof EXIT_USAGE = EXIT_FAILURE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, EXIT_USAGE);
}

/** An error answer of the API; `message` is the server's own Spanish message. */
export class ApiError extends CliError {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The kit's own errors a command can meet, said in Spanish: the kit is loaded on demand, so they are known
 * by name rather than by class.
 */
export function readableError(error: unknown): unknown {
  const kitError = error as { name?: string; dataDir?: string; presence?: { pid?: number } } | undefined;
  if (kitError?.name === 'DataDirInUseError') {
    return new CliError(
      `La carpeta de datos ${kitError.dataDir} está en uso por el servidor (proceso ${kitError.presence?.pid}): páralo y vuelve a ejecutar el comando`,
    );
  }
  return error;
}
