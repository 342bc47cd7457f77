import { pino, type Logger, type LoggerOptions } from 'pino';

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

export function createLogger(level: string, name: string, extra: LoggerOptions = {}): Logger {
  return pino({ level, name, redact: { paths: REDACTED_PATHS, censor: '[redactado]' }, ...extra });
}

export type { Logger };
