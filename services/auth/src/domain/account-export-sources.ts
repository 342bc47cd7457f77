import { AccountExportPage, accountExportRoutes, type AccountExportRoute } from '@asistente/contracts';
import {
  callerOf,
  jsonArrayPart,
  readAccountExportPage,
  ServiceCallError,
  singlePart,
  type AccountExportPart,
  type ActingMember,
  type ServiceClient,
} from '@asistente/kit';
import { toUser } from './user.js';
import type { SecurityActivityExportRepository } from './security-activity-export.repository.js';
import type { UsersRepository } from './users.repository.js';

/**
 * What an archive holds. The owner's: the workspace (every service's shared data) and their own. Any other
 * member's: their own only (profile, mail, calendars, and the security log's lines they caused).
 */
export interface ExportPlan {
  scope: 'workspace' | 'member';
  member: ActingMember;
}

/** One folder of the archive and where its pages come from. */
export interface ExportSource {
  folder: string;
  /** Whether a member's own archive holds it too (the workspace's always does). */
  personal: boolean;
  read(plan: ExportPlan, cursor: string | undefined): Promise<AccountExportPage>;
}

/** Each service's part: the route that serves it, the folder it goes to, and whether it is the person's own. */
export const SERVICE_PARTS: readonly { route: AccountExportRoute; folder: string; personal: boolean }[] = [
  { route: accountExportRoutes.contacts, folder: 'contactos', personal: false },
  { route: accountExportRoutes.whatsapp, folder: 'whatsapp', personal: false },
  { route: accountExportRoutes.email, folder: 'correo', personal: true },
  { route: accountExportRoutes.calendar, folder: 'calendario', personal: true },
  { route: accountExportRoutes.ai, folder: 'asistente', personal: false },
  { route: accountExportRoutes.inbox, folder: 'conversaciones', personal: false },
  { route: accountExportRoutes.analytics, folder: 'analitica', personal: false },
];

/** A page may be a megabyte of a slow service's rows: longer than a tool call's wait. */
const PAGE_TIMEOUT_MS = 60_000;
const ATTEMPTS = 3;

/** A sibling's part over HTTP with the member's short-lived token; a page that could not be fetched is asked again. */
export function serviceSource(services: ServiceClient, part: (typeof SERVICE_PARTS)[number]): ExportSource {
  return {
    folder: part.folder,
    personal: part.personal,
    async read(plan, cursor) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await services.call(part.route, callerOf(plan.member), { query: { cursor }, timeoutMs: PAGE_TIMEOUT_MS });
        } catch (error) {
          // Unreachable or overloaded (503) is worth another try; any other answer is the same the next time.
          if (attempt >= ATTEMPTS || !(error instanceof ServiceCallError) || error.statusCode !== 503) throw error;
        }
      }
    },
  };
}

/**
 * Auth's own part, read in this process: the profile (never the password hash) and the security activity log
 * (the workspace's whole log in the owner's archive; the lines a member caused in theirs).
 */
export function authSource(users: UsersRepository, activity: SecurityActivityExportRepository): ExportSource {
  const partsFor = (plan: ExportPlan): AccountExportPart[] => [
    singlePart('perfil.json', async () => {
      const row = await users.findById(plan.member.id);
      return row ? `${JSON.stringify(toUser(row), null, 2)}\n` : null;
    }),
    jsonArrayPart(
      'actividad-de-seguridad.json',
      {
        rows: (_key, after, limit) =>
          plan.scope === 'workspace' ? activity.rows(plan.member.workspaceId, after, limit) : activity.rowsBy(plan.member.id, after, limit),
        key: (row) => `${row.cursorAt}|${row.id}`,
      },
      ({ cursorAt: _cursorAt, at, ...row }) => ({ ...row, at: at.toISOString() }),
    ),
  ];
  return { folder: 'cuenta', personal: true, read: (plan, cursor) => readAccountExportPage(partsFor(plan), plan.member.id, cursor) };
}
