import type { SecurityActivityDetail, SecurityActivityEventData, SecurityActivityType } from '@asistente/contracts';
import { createEvent, type EventEnvelope } from './envelope.js';

/** Where a request came from, as the security log keeps it (`securityClient(request)` of the contracts). */
export type SecurityClient = Pick<SecurityActivityEventData, 'ip' | 'userAgent' | 'actorId'>;

/**
 * A line of the owner's security activity log as an outbox event: appended by the service that made the
 * change, in the change's transaction, and written into auth.security_activity by auth's consumer.
 * `detail` names a provider or an account address at most, never a secret.
 */
export function securityActivityEvent(
  userId: string,
  activity: SecurityActivityType,
  client: SecurityClient,
  detail: SecurityActivityDetail = {},
): EventEnvelope<'security.activity.recorded', SecurityActivityEventData> {
  const actor = client.actorId ? { actorId: client.actorId } : {};
  return createEvent('security.activity.recorded', userId, { activity, ip: client.ip, userAgent: client.userAgent, detail, ...actor });
}
