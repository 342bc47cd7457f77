import { TextDecoder } from 'node:util';

/**
 * How many bytes at the end of `bytes` begin a UTF-8 sequence that does not
 * end there (0 to 3): they wait for the next chunk.
 */
function unfinishedTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/**
 * Decodes a byte stream as UTF-8, falling back to Windows-1252 for the rest
 * of the stream at the first invalid sequence: spreadsheets saved "as CSV" on
 * Windows are commonly Latin-1, and "Pérez" must not become "P�rez". A
 * sequence cut between chunks is carried to the next one, so no byte is lost
 * at the switch, and one the stream never finishes is read as Windows-1252.
 */
export async function* decodeText(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  // Each call decodes whole sequences only; a byte order mark is the first line's to strip, not every chunk's.
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const latin = new TextDecoder('windows-1252');
  let isUtf8 = true;
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    if (typeof chunk === 'string') {
      yield chunk;
      continue;
    }
    if (!isUtf8) {
      yield latin.decode(chunk, { stream: true });
      continue;
    }
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const whole = bytes.length - unfinishedTail(bytes);
    let text: string;
    try {
      text = utf8.decode(bytes.subarray(0, whole));
      carry = bytes.subarray(whole);
    } catch {
      isUtf8 = false;
      text = latin.decode(bytes, { stream: true });
    }
    yield text;
  }
  // Streaming even here: Node 20's one-shot windows-1252 decode reads 0x80-0x9F as Latin-1 controls, not "€".
  const tail = (isUtf8 ? latin.decode(carry, { stream: true }) : '') + latin.decode();
  if (tail) yield tail;
}
