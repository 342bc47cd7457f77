import { Type, type Static } from '@sinclair/typebox';

/**
 * "Descargar mis datos". Auth builds one ZIP from every service's part; each service serves its own part
 * at `GET /api/<prefix>/account-export` as pages of pieces. A piece is a slice of one file of the archive:
 * consecutive pieces with the same path are one file, so a file larger than a page (a 100k-row CSV, a long
 * chat) spans pages, and no side ever holds a whole file. Paths are relative to the service's folder.
 */

/** A relative path: folders and file names, no `..`, no leading slash, no backslash or control characters. */
export const ACCOUNT_EXPORT_PATH_PATTERN = '^(?!.*(^|/)\\.\\.?(/|$))[^/\\\\\\u0000-\\u001f][^\\\\\\u0000-\\u001f]*$';

export const AccountExportPiece = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: 300, pattern: ACCOUNT_EXPORT_PATH_PATTERN }),
    /** UTF-8 text (CSV, JSON, .ics, .eml). */
    text: Type.Optional(Type.String()),
    /** Binary content (a stored attachment), base64. */
    base64: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type AccountExportPiece = Static<typeof AccountExportPiece>;

export const AccountExportPage = Type.Object({
  pieces: Type.Array(AccountExportPiece),
  /** Where the next page starts; null when the part is complete. Opaque to the caller. */
  cursor: Type.Union([Type.String(), Type.Null()]),
  /** How much of this service's part is done, 0..1, for the progress bar. */
  progress: Type.Number({ minimum: 0, maximum: 1 }),
});
export type AccountExportPage = Static<typeof AccountExportPage>;

export const AccountExportPageQuery = Type.Object(
  { cursor: Type.Optional(Type.String({ maxLength: 500, pattern: '^[A-Za-z0-9_~-]*$', messages: { pattern: 'El cursor de la exportación no es válido' } })) },
  { additionalProperties: false },
);
export type AccountExportPageQuery = Static<typeof AccountExportPageQuery>;

/** How long a finished archive can be downloaded. */
export const ACCOUNT_EXPORT_TTL_HOURS = 24;

export const AccountExportStatus = Type.Union([Type.Literal('running'), Type.Literal('ready'), Type.Literal('failed')]);
export type AccountExportStatus = Static<typeof AccountExportStatus>;

/** POST /account/export: the build started (409 while another runs, 429 past the daily number). */
export const AccountExportStarted = Type.Object({ id: Type.String({ format: 'uuid' }), status: AccountExportStatus });
export type AccountExportStarted = Static<typeof AccountExportStarted>;

/** GET /account/export/:id */
export const AccountExport = Type.Object({
  id: Type.String({ format: 'uuid' }),
  status: AccountExportStatus,
  /** 0..100 */
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  createdAt: Type.String({ format: 'date-time' }),
  /** Present when ready: where the ZIP is downloaded (the owner's session, until expiresAt). */
  downloadUrl: Type.Optional(Type.String()),
  expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  /** Bytes of the ZIP, when ready. */
  size: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type AccountExport = Static<typeof AccountExport>;

/**
 * GET /account/export: the newest export still running or downloadable, so the card shows it again after a
 * reload; null when there is none (never asked for, failed, or past its 24 hours).
 */
export const CurrentAccountExport = Type.Object({ export: Type.Union([AccountExport, Type.Null()]) });
export type CurrentAccountExport = Static<typeof CurrentAccountExport>;

export const AccountExportParams = Type.Object({
  id: Type.String({ format: 'uuid', messages: { format: 'El identificador de la exportación no es válido' } }),
});
export type AccountExportParams = Static<typeof AccountExportParams>;
