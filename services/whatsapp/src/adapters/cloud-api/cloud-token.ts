import { WHATSAPP_CLOUD_TOKEN_COLUMN } from '../../domain/secret-columns.js';

/** The sealed access token's context: bound to its workspace, table and column (rotate-keys uses the same). */
export const tokenContext = (userId: string) => ({ userId, table: WHATSAPP_CLOUD_TOKEN_COLUMN.table, column: WHATSAPP_CLOUD_TOKEN_COLUMN.column });
