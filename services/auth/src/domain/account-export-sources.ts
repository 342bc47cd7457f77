import { AccountExportPage } from '@asistente/contracts';
import { jsonArrayPart, readAccountExportPage, ServiceCallError, singlePart, type AccountExportPart, type ServiceClient, type ServiceName } from '@asistente/kit';
import { toUser } from './user.js';
import type { SecurityActivityExportRepository } from './security-activity-export.repository.js';
import type { UsersRepository } from './users.repository.js';

/** One folder of the archive and where its pages come from. */
export interface ExportSource {
  folder: string;
  read(userId: string, cursor: string | undefined): Promise<AccountExportPage>;
}

/** Each service's part, the folder it goes to, and the path it serves it at (below /api). */
export const SERVICE_PARTS: readonly { service: ServiceName; path: string; folder: string }[] = [
  { service: 'contacts', path: '/contacts/account-export', folder: 'contactos' },
  { service: 'whatsapp', path: '/whatsapp/account-export', folder: 'whatsapp' },
  { service: 'email', path: '/emails/account-export', folder: 'correo' },
  { service: 'calendar', path: '/events/account-export', folder: 'calendario' },
  { service: 'ai', path: '/ai/account-export', folder: 'asistente' },
  { service: 'analytics', path: '/analytics/account-export', folder: 'analitica' },
];

/** A page may be a megabyte of a slow service's rows: longer than a tool call's wait. */
const PAGE_TIMEOUT_MS = 60_000;
const ATTEMPTS = 3;

/** A sibling's part over HTTP with the user's short-lived token; a page that could not be fetched is asked again. */
export function serviceSource(services: ServiceClient, part: (typeof SERVICE_PARTS)[number]): ExportSource {
  return {
    folder: part.folder,
    async read(userId, cursor) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await services.call(part.service, userId, part.path, AccountExportPage, { query: { cursor }, timeoutMs: PAGE_TIMEOUT_MS });
        } catch (error) {
          // Unreachable or overloaded (503) is worth another try; any other answer is the same the next time.
          if (attempt >= ATTEMPTS || !(error instanceof ServiceCallError) || error.statusCode !== 503) throw error;
        }
      }
    },
  };
}

/** Auth's own part, read in this process: the profile (never the password hash) and the security activity log. */
export function authSource(users: UsersRepository, activity: SecurityActivityExportRepository): ExportSource {
  const parts: AccountExportPart[] = [
    singlePart('perfil.json', async (userId) => {
      const row = await users.findById(userId);
      return row ? `${JSON.stringify(toUser(row), null, 2)}\n` : null;
    }),
    jsonArrayPart(
      'actividad-de-seguridad.json',
      { rows: (userId, after, limit) => activity.rows(userId, after, limit), key: (row) => `${row.cursorAt}|${row.id}` },
      ({ cursorAt: _cursorAt, at, ...row }) => ({ ...row, at: at.toISOString() }),
    ),
  ];
  return { folder: 'cuenta', read: (userId, cursor) => readAccountExportPage(parts, userId, cursor) };
}
