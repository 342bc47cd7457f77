import { createInterface } from 'node:readline/promises';
import { CliError } from './errors.js';

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const BACKSPACE = ['\u007f', '\b'];

export function isInteractive(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}

/** A visible question on the terminal (stderr, so stdout stays for results). */
export async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/**
 * A question whose answer is not echoed (passwords, API keys): raw mode, reading keys ourselves, since
 * readline has no public way to hide what is typed.
 */
export function askHidden(question: string): Promise<string> {
  const { stdin, stderr } = process;
  stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let answer = '';
    const finish = (error?: CliError) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
      if (error) reject(error);
      else resolve(answer);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === CTRL_D) return finish();
        if (char === CTRL_C) return finish(new CliError('Cancelado'));
        if (BACKSPACE.includes(char)) answer = answer.slice(0, -1);
        else answer += char;
      }
    };
    stdin.on('data', onData);
  });
}

/** Everything piped to stdin, e.g. `pass show openai | asistente openai set-key`. */
export async function readStdin(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}
