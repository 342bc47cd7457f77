import type { WriteStream } from 'node:tty';

const WIDTH = 28;
const REDRAW_MS = 100;
const numbers = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${numbers.format(bytes / 1024)} KB`;
  if (bytes < 1024 ** 3) return `${numbers.format(bytes / 1024 ** 2)} MB`;
  return `${numbers.format(bytes / 1024 ** 3)} GB`;
}

/**
 * A one-line bar on stderr, redrawn in place: `[█████░░░] 62% 3,1 MB / 5 MB`. Only on a terminal: in a pipe
 * or a CI log the carriage returns would pile up as noise.
 */
export class ProgressBar {
  #last = 0;
  readonly #active: boolean;

  constructor(
    private readonly total: number,
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.#active = (stream as Partial<WriteStream>).isTTY === true;
  }

  update(done: number): void {
    const now = Date.now();
    if (!this.#active || now - this.#last < REDRAW_MS) return;
    this.#last = now;
    this.#draw(done);
  }

  /** Draws 100% and moves to a new line, with what happens next (e.g. the server still working). */
  finish(next?: string): void {
    if (!this.#active) return;
    this.#draw(this.total);
    this.stream.write(next ? `\n${next}\n` : '\n');
  }

  /** Ends the line of an interrupted bar, so the error message that follows starts on its own line. */
  abort(): void {
    if (this.#active && this.#last > 0) this.stream.write('\n');
  }

  #draw(done: number): void {
    const ratio = this.total > 0 ? Math.min(done / this.total, 1) : 1;
    const filled = Math.round(ratio * WIDTH);
    const bar = '█'.repeat(filled) + '░'.repeat(WIDTH - filled);
    const percent = String(Math.floor(ratio * 100)).padStart(3);
    this.stream.write(`\r${this.label} [${bar}] ${percent}% ${formatBytes(done)} / ${formatBytes(this.total)}`);
  }
}
