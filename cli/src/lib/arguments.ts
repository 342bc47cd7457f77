import { InvalidArgumentError } from 'commander';

/** Option parser for counts: commander reports the error as a usage error (exit 2). */
export function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed) || parsed < 1) {
    throw new InvalidArgumentError('debe ser un número entero mayor que 0');
  }
  return parsed;
}

export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('no es una URL válida');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('debe empezar por http:// o https://');
  return value;
}
