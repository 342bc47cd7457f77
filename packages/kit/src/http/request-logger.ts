import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';

/**
 * A request's logger (`request.log`) that makes its pino child, the request id bound, only when a line is
 * written at a level that is on. Fastify makes one per request; pino's `child()` serialises and redacts the
 * bindings, microseconds on every request of the gateway and of each service, while most requests write no
 * line at the usual levels. The lines written are the child's own, so they read exactly as before.
 */
class RequestLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bound: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.own().level = level;
  }

  fatal(...line: unknown[]): void {
    this.write('fatal', line);
  }

  error(...line: unknown[]): void {
    this.write('error', line);
  }

  warn(...line: unknown[]): void {
    this.write('warn', line);
  }

  info(...line: unknown[]): void {
    this.write('info', line);
  }

  debug(...line: unknown[]): void {
    this.write('debug', line);
  }

  trace(...line: unknown[]): void {
    this.write('trace', line);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.own().child(bindings, options);
  }

  private own(): Logger {
    return (this.made ??= this.parent.child(this.bound, this.options));
  }

  private write(level: Level, line: unknown[]): void {
    if (!this.made && !this.parent.isLevelEnabled(level)) return;
    const logger = this.own();
    // pino's level methods take (object | message, ...arguments); the arguments pass through untouched.
    (logger[level] as (...args: unknown[]) => void).apply(logger, line);
  }
}

/**
 * Fastify's `childLoggerFactory`: a route with its own level gets its child at once (its level decides what
 * is written); every other request gets a `RequestLogger`.
 */
export function requestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // Every app's logger is pino's (createLogger); Fastify's type names only the methods it calls itself.
  const parent = logger as Logger;
  if (options.level) return parent.child(bindings, options);
  return new RequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
