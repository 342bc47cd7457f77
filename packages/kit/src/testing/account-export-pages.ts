import type { AccountExportPage } from '@asistente/contracts';
import type { App } from '../http/app.js';

/**
 * Every file of a service's part of "Descargar mis datos", read page by page as auth reads it (tests only):
 * consecutive pieces with one path are joined into one file. Also returns how many pages it took.
 */
export async function readAccountExportPart(app: App, url: string, authorization: string): Promise<{ files: Map<string, Buffer>; pages: number }> {
  const files = new Map<string, Buffer>();
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: { statusCode: number; body: string } = await app.inject({ url, query: cursor ? { cursor } : {}, headers: { authorization } });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
    const page = JSON.parse(res.body) as AccountExportPage;
    pages++;
    for (const piece of page.pieces) {
      const data = piece.base64 !== undefined ? Buffer.from(piece.base64, 'base64') : Buffer.from(piece.text ?? '', 'utf8');
      files.set(piece.path, Buffer.concat([files.get(piece.path) ?? Buffer.alloc(0), data]));
    }
    cursor = page.cursor;
  } while (cursor !== null);
  return { files, pages };
}
