import { TextDecoder } from 'node:util';

/**
 * Decodes a byte stream as UTF-8, falling back to Windows-1252 for the rest
 * of the stream at the first invalid sequence: spreadsheets saved "as CSV" on
 * Windows are commonly Latin-1, and "Pérez" must not become "P�rez".
 */
export async function* decodeText(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  let utf8: TextDecoder | undefined = new TextDecoder('utf-8', { fatal: true });
  const latin = new TextDecoder('windows-1252');
  for await (const chunk of chunks) {
    if (typeof chunk === 'string') {
      yield chunk;
      continue;
    }
    if (utf8) {
      try {
        yield utf8.decode(chunk, { stream: true });
        continue;
      } catch {
        utf8 = undefined;
      }
    }
    yield latin.decode(chunk, { stream: true });
  }
  const tail = utf8 ? utf8.decode() : latin.decode();
  if (tail) yield tail;
}
