import { ErrorResponse, type AccountExportPage, type AccountExportPiece, type AccountExportRoute } from '@asistente/contracts';
import { badRequest } from './errors.js';
import type { App } from './app.js';
import { describedRoute } from './described-route.js';

/**
 * One part of a service's share of "Descargar mis datos" (its contacts CSV, its chats…), read a page at a
 * time so neither the service nor auth ever holds the whole of it. `cursor` is undefined on the first call;
 * `next` null says the part is complete.
 */
export interface AccountExportPart {
  page(userId: string, cursor: string | undefined): Promise<{ pieces: AccountExportPiece[]; next: string | null }>;
}

/** Text a page carries before it is answered: large enough to keep calls few, small enough to keep memory flat. */
export const ACCOUNT_EXPORT_PAGE_BYTES = 1_000_000;

/** `<part>~<part's cursor, base64url>`: any part cursor travels safely in a query string. */
function encodeCursor(part: number, cursor: string | undefined): string {
  return `${part}~${cursor === undefined ? '' : Buffer.from(cursor, 'utf8').toString('base64url')}`;
}

function decodeCursor(cursor: string | undefined, parts: number): { part: number; cursor: string | undefined } {
  if (cursor === undefined || cursor === '') return { part: 0, cursor: undefined };
  const match = /^(\d{1,3})~([A-Za-z0-9_-]*)$/.exec(cursor);
  const part = match ? Number(match[1]) : NaN;
  if (!match || part >= parts) throw badRequest('El cursor de la exportación no es válido', 'EXPORT_CURSOR');
  return { part, cursor: match[2] === '' ? undefined : Buffer.from(match[2]!, 'base64url').toString('utf8') };
}

function pieceBytes(piece: AccountExportPiece): number {
  return (piece.text?.length ?? 0) + (piece.base64?.length ?? 0);
}

/** The next page of `parts` from `cursor`: pages of several parts are joined until the page is full. */
export async function readAccountExportPage(parts: readonly AccountExportPart[], userId: string, cursor: string | undefined): Promise<AccountExportPage> {
  let at = decodeCursor(cursor, parts.length);
  const pieces: AccountExportPiece[] = [];
  let bytes = 0;
  while (at.part < parts.length && bytes < ACCOUNT_EXPORT_PAGE_BYTES) {
    const page = await parts[at.part]!.page(userId, at.cursor);
    for (const piece of page.pieces) bytes += pieceBytes(piece);
    pieces.push(...page.pieces);
    at = page.next === null ? { part: at.part + 1, cursor: undefined } : { part: at.part, cursor: page.next };
  }
  const done = at.part >= parts.length;
  return { pieces, cursor: done ? null : encodeCursor(at.part, at.cursor), progress: done ? 1 : at.part / parts.length };
}

/**
 * `GET /<prefix>/account-export?cursor=`, as `route` (the service's own of `accountExportRoutes`) describes it: the
 * caller's own data of this service, as pages of pieces. Every service answers its part the same way, and auth
 * assembles the archive (never reading another schema).
 *
 * `keyedBy`: what the service keeps under the caller's id: the workspace's shared data (the owner's export), or
 * the person's own (their mail, their calendars: in every member's own export too).
 */
export function accountExportRoute(app: App, route: AccountExportRoute, parts: readonly AccountExportPart[], keyedBy: 'workspace' | 'person' = 'workspace'): void {
  describedRoute(app, route, {
    summary: 'Una página de los datos del usuario para "Descargar mis datos"',
    description: 'Piezas de archivos del ZIP de la cuenta: las piezas seguidas con la misma ruta forman un archivo. Sin secretos.',
    errors: { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
    // Auth asks with the user's short-lived service token; the scope table opens it to no personal token.
    handler: async (request) => readAccountExportPage(parts, keyedBy === 'person' ? request.user.id : request.user.workspaceId, request.query.cursor),
  });
}

export interface KeysetSource<Row> {
  /** Rows after `after` (undefined: from the start), in key order, at most `limit`. */
  rows(userId: string, after: string | undefined, limit: number): Promise<Row[]>;
  /** The row's key, as `rows` takes it back in `after`. */
  key(row: Row): string;
}

/** A cursor of a keyset part: whether the file was opened yet, then the last key read. */
function keysetCursor(after: string | undefined): string {
  return `k${after ?? ''}`;
}

/**
 * A file built from rows read by keyset pages: `head` opens it, each page adds `body(rows)`, `tail` closes it.
 * The cursor is the last key read, so a page is one indexed query whatever the table's size.
 */
export function keysetPart<Row>(
  path: string,
  source: KeysetSource<Row>,
  file: { head: string; body: (rows: Row[], first: boolean) => string; tail: string },
  limit = 2000,
): AccountExportPart {
  return {
    async page(userId, cursor) {
      const first = cursor === undefined;
      const after = first ? undefined : cursor.slice(1) || undefined;
      const rows = await source.rows(userId, after, limit);
      const last = rows.length < limit;
      const text = `${first ? file.head : ''}${file.body(rows, first)}${last ? file.tail : ''}`;
      const next = last ? null : keysetCursor(source.key(rows[rows.length - 1]!));
      return { pieces: [{ path, text }], next };
    },
  };
}

/** A JSON array file of rows read by keyset pages. */
export function jsonArrayPart<Row>(path: string, source: KeysetSource<Row>, toJson: (row: Row) => unknown, limit = 2000): AccountExportPart {
  return keysetPart(path, source, { head: '[\n', body: (rows, first) => (first ? '' : rows.length ? ',\n' : '') + rows.map((r) => JSON.stringify(toJson(r))).join(',\n'), tail: '\n]\n' }, limit);
}

/** A file written in one page (a profile, a configuration). */
export function singlePart(path: string, content: (userId: string) => Promise<string | null>): AccountExportPart {
  return {
    async page(userId) {
      const text = await content(userId);
      return { pieces: text === null ? [] : [{ path, text }], next: null };
    },
  };
}
