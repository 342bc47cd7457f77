import { createEvent } from '@asistente/kit';
import type { MailAccount } from './account.js';
import type { NewMessage } from './messages.repository.js';

/**
 * The "received" events of inbox mail a sync has just stored, each dated by the mail's arrival (the
 * server's INTERNALDATE, else its Date header) so analytics counts it in the period it arrived in, however
 * late the sync ran. A date in the future (a sender's clock) counts as now.
 */
export function receivedEvents(account: Pick<MailAccount, 'userId' | 'provider'>, stored: { id: string; uid: number }[], batch: NewMessage[], now = new Date()) {
  const arrivals = new Map(batch.map((m) => [m.uid, m.arrivedAt ?? m.parsed.sentAt]));
  return stored.map(({ id, uid }) => {
    const arrived = arrivals.get(uid);
    const at = arrived && !Number.isNaN(arrived.getTime()) && arrived.getTime() < now.getTime() ? arrived : now;
    return createEvent('email.message.received', account.userId, { messageId: id, provider: account.provider }, at);
  });
}
