import { type TeamsMeetingBody, teamsRoutes } from '@asistente/contracts';
import { AppError, ServiceCallError, type ServiceClient } from '@asistente/kit';
import type { CreatedMeeting, MeetingProvider, MeetingRequest } from '../../domain/meetings/meeting-port.js';

/** Graph stores the event and teams answers it; past this the meeting's fate is unknown (never retried). */
const CREATE_TIMEOUT_MS = 15_000;

/** Teams' own refusal (not connected, not configured, Graph's answer in Spanish) travels on as it is. */
function teamsFailure(error: unknown): unknown {
  if (!(error instanceof ServiceCallError)) return error;
  const body = error.body as { code?: unknown; message?: unknown } | undefined;
  if (typeof body?.code === 'string' && typeof body.message === 'string') return new AppError(error.statusCode, body.code, body.message);
  // No answer of teams' own: not reached, timed out, or answered outside its contract. It may have created it.
  return new AppError(502, 'TEAMS_UNAVAILABLE', 'No se pudo confirmar la reunión con Microsoft Teams. Revisa tu calendario de Outlook antes de intentarlo de nuevo.');
}

/**
 * Teams meetings, through the teams service's own route (POST /teams/meetings), which keeps the Microsoft
 * connection: the calendar service holds no Microsoft token and sees no Graph shape, only teams' contract.
 */
export class TeamsMeetingProvider implements MeetingProvider {
  readonly name = 'teams';
  readonly account = 'Microsoft 365';

  constructor(
    private readonly services: ServiceClient,
    /** Whether teams answered that the member has Microsoft connected. */
    private readonly microsoftConnected: (userId: string) => Promise<boolean>,
  ) {}

  connected(userId: string): Promise<boolean> {
    return this.microsoftConnected(userId);
  }

  async create(userId: string, request: MeetingRequest): Promise<CreatedMeeting> {
    const body: TeamsMeetingBody = {
      title: request.title,
      startTime: request.startTime.toISOString(),
      endTime: request.endTime.toISOString(),
      attendees: request.attendees,
      ...(request.description !== null ? { description: request.description } : {}),
    };
    const meeting = await this.services
      .call(teamsRoutes.createMeeting, userId, { body, timeoutMs: CREATE_TIMEOUT_MS })
      .catch((error: unknown) => Promise.reject(teamsFailure(error)));
    return {
      id: meeting.id,
      provider: this.name,
      joinUrl: meeting.joinUrl,
      title: meeting.title,
      startTime: new Date(meeting.startTime),
      endTime: new Date(meeting.endTime),
      attendees: meeting.attendees,
    };
  }
}
