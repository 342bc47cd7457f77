import t from 'tap';
import { receivedEvents } from '../src/domain/received-events.js';
import type { NewMessage } from '../src/domain/messages.repository.js';

const account = { userId: '00000000-0000-4000-8000-0000000000c3', provider: 'imap' as const };
const now = new Date('2026-11-26T10:00:00.000Z');
const mail = (uid: number, sentAt: string, arrivedAt?: string) =>
  ({ uid, isRead: false, hasAttachments: false, bodyFetched: false, parsed: { sentAt: new Date(sentAt) }, ...(arrivedAt ? { arrivedAt: new Date(arrivedAt) } : {}) }) as unknown as NewMessage;

t.test('a received event is dated by arrival: INTERNALDATE, else the Date header, never in the future', async (t) => {
  const batch = [mail(1, '2026-11-01T08:00:00Z', '2026-11-20T09:30:00Z'), mail(2, '2026-11-22T12:00:00Z'), mail(3, '2027-01-01T00:00:00Z', '2027-01-01T00:00:00Z')];
  const events = receivedEvents(account, [{ id: 'm1', uid: 1 }, { id: 'm2', uid: 2 }, { id: 'm3', uid: 3 }], batch, now);
  t.same(
    events.map((e) => [e.type, e.data.messageId, e.occurredAt]),
    [
      ['email.message.received', 'm1', '2026-11-20T09:30:00.000Z'],
      ['email.message.received', 'm2', '2026-11-22T12:00:00.000Z'],
      ['email.message.received', 'm3', now.toISOString()],
    ],
  );
  t.same(events[0]!.data, { messageId: 'm1', provider: 'imap' });
  t.same(receivedEvents(account, [], batch, now), [], 'nothing stored, nothing received');
});
