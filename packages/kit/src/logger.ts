import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/** Paths that may carry a credential; pino replaces them before anything is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
  '*.apiKey',
  '*.secret',
];

/** `destination` defaults to stdout; tests pass a memory stream to read what was logged. */
export function createLogger(level: string, name: string, extra: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const options: LoggerOptions = { level, name, redact: { paths: REDACTED_PATHS, censor: '[redactado]' }, ...extra };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
