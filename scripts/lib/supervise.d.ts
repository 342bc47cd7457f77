import type { ChildProcess } from 'node:child_process';

/** Types for supervise.js (the launcher's scripts are plain JavaScript). */
export interface SuperviseOptions {
  firstDelayMs?: number;
  maxDelayMs?: number;
  stableMs?: number;
  log?: (line: string) => void;
  startOptions?: { cwd?: string; width?: number; output?: NodeJS.WritableStream; onLine?: (line: string) => void };
}

export interface Supervised {
  readonly name: string;
  readonly child: ChildProcess;
  readonly restarts: number;
  stop(): void;
}

export function supervise(name: string, script: string, env: NodeJS.ProcessEnv, options?: SuperviseOptions): Supervised;
