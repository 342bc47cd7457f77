import { AppError } from '@asistente/kit';

export const HASHING_BUSY_MESSAGE = 'El servidor está atendiendo muchos inicios de sesión. Inténtalo de nuevo en unos segundos';

/**
 * Bounds password hashing: each scrypt derivation at OWASP's strength holds
 * ~128 MiB while it runs, so at most `concurrency` run at once, at most
 * `maxQueued` wait, and anything beyond answers 503 at once (Retry-After)
 * instead of queueing memory and latency without end.
 */
export class HashingGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
  ) {}

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxQueued) throw busy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      // Hand the slot straight to the next in line (the count stays), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

function busy(): AppError {
  const error = new AppError(503, 'BUSY', HASHING_BUSY_MESSAGE);
  error.headers = { 'retry-after': '2' };
  return error;
}
