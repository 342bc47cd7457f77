// A drain whose database step never answers gives up within its deadline, naming the step, and the next drain delivers (once per WhatsApp id).
import t from 'tap';
import { createLogger, type Logger, type Outbox, type Sql } from '@asistente/kit';
import type { AccountsRepository } from '../src/domain/accounts.repository.js';
import type { MessagesRepository } from '../src/domain/messages.repository.js';
import { OutboundService } from '../src/domain/outbound.service.js';
import type { WhatsAppSocket } from '../src/domain/whatsapp-socket.js';

const DEADLINE_MS = 100;
const never = () => new Promise<never>(() => {});

/** One pending send and the steps the drain takes on it; `stall` names the step that never answers, once. */
function stage(stall: 'next' | 'markSent') {
  const message = { id: 'm1', chatJid: '34600000001@s.whatsapp.net', body: 'Hola', waId: 'WA1', origin: 'app' };
  let pending = true;
  const stalls = { next: stall === 'next', markSent: stall === 'markSent' };
  const sent: string[] = [];
  const messages = {
    nextPending: async () => {
      if (stalls.next) {
        stalls.next = false;
        return never();
      }
      return pending ? message : undefined;
    },
    markSent: async () => {
      if (stalls.markSent) {
        stalls.markSent = false;
        return never();
      }
      const first = pending;
      pending = false;
      return first;
    },
    countAttempt: async () => 1,
    markFailed: async () => {},
  } as unknown as MessagesRepository;
  const sql = { begin: (work: (tx: unknown) => Promise<unknown>) => work({}) } as unknown as Sql;
  const outbox = { append: async () => {} } as unknown as Outbox;
  const log: Logger = createLogger('silent', 'test');
  const outbound = new OutboundService(sql, messages, {} as AccountsRepository, outbox, () => 'id', log, { automatedGapMs: 0 }, DEADLINE_MS);
  const socket = { sendText: async (_jid: string, _text: string, waId: string) => void sent.push(waId) } as unknown as WhatsAppSocket;
  const drain = () => outbound.drain('u1', (next) => socket.sendText(next.chatJid, next.body, next.waId), () => true);
  return { drain, sent, isPending: () => pending };
}

t.test('reading the next send never answers: the drain gives up, the next one delivers', async (t) => {
  const { drain, sent, isPending } = stage('next');
  await t.rejects(drain(), { message: 'whatsapp delivery stalled reading the next send' }, 'the stalled step is named');
  t.same(sent, [], 'nothing was sent by the stalled drain');
  await drain();
  t.same(sent, ['WA1'], 'the next drain sends it');
  t.notOk(isPending(), 'and writes it as sent');
});

t.test('writing a send as sent never answers: the next drain hands it over again under the same id, written once', async (t) => {
  const { drain, sent, isPending } = stage('markSent');
  await t.rejects(drain(), { message: 'whatsapp delivery stalled writing a send as sent' });
  t.ok(isPending(), 'still pending: nothing wrote it as sent');
  await drain();
  t.same(sent, ['WA1', 'WA1'], 'handed to the socket again with its own WhatsApp id: one message to WhatsApp');
  t.notOk(isPending(), 'written as sent');
});
