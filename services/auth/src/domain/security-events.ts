import type { SecurityActivityDetail, SecurityActivityEventData, SecurityActivityType } from '@asistente/contracts';
import { createEvent } from '@asistente/kit';

/** Where a request came from, as the security log keeps it (`securityClient(request)`). */
export type SecurityClient = Pick<SecurityActivityEventData, 'ip' | 'userAgent'>;

/** A security log line as an outbox event: auth's own lines take the same path as every other service's. */
export function securityEvent(userId: string, activity: SecurityActivityType, client: SecurityClient, detail: SecurityActivityDetail = {}) {
  const data: SecurityActivityEventData = { activity, ...client, detail };
  return createEvent('security.activity.recorded', userId, data);
}
