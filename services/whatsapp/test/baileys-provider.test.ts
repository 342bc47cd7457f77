// WhatsApp over Baileys as a provider of the messaging port passes the conformance suite against the fake socket: QR linking, sends once per client id under WhatsApp's id, customers' messages and read receipts through its intake, no media out.
import { randomInt } from 'node:crypto';
import t from 'tap';
import { proto } from '@whiskeysockets/baileys';
import { createTestPlatform, insertAccount, messagingConformance, type FarCustomer } from '@asistente/kit/testing';
import { BaileysProvider } from '../src/adapters/baileys-provider.js';
import { FakePhone, waMessage } from './support/fake-socket.js';
import { whatsappApp } from './support/harness.js';

const platform = await createTestPlatform(t);

/** A customer's phone on the fake WhatsApp: a number of their own, so no other workspace's sends mix in. */
function customerOn(phone: FakePhone): FarCustomer {
  const digits = `3461${randomInt(1_000_000, 9_999_999)}`;
  const jid = `${digits}@s.whatsapp.net`;
  return {
    address: `+${digits}`,
    name: 'Carmen Ruiz',
    write: async (content) => {
      if (content.kind !== 'text') throw new Error('the fake phone writes text');
      phone.current.notify([waMessage({ remoteJid: jid, text: content.text, pushName: 'Carmen Ruiz' })]);
    },
    received: async () =>
      phone.sockets.flatMap((socket) => socket.sent).filter((m) => m.jid === jid).map((m) => ({ id: m.messageId ?? '', text: m.text, media: null })),
    read: async (id) => {
      phone.current.ev.emit('messages.update', [{ key: { remoteJid: jid, fromMe: true, id }, update: { status: proto.WebMessageInfo.Status.READ } }]);
    },
  };
}

t.test('WhatsApp over Baileys passes the messaging conformance suite', async (t) => {
  const phone = new FakePhone();
  const h = await whatsappApp(t, platform, {}, phone);
  await messagingConformance<void>(t, {
    name: 'WhatsApp (Baileys)',
    capabilities: { media: false, receipts: true },
    provider: async (intake) => new BaileysProvider(platform.db.sql, h.sessions(), intake),
    workspace: () => insertAccount(platform.db.sql),
    settings: () => undefined,
    // The owner scans the QR with the phone: linked, WhatsApp restarts the socket, which opens.
    completeLink: async () => phone.current.scan(),
    customer: async () => customerOn(phone),
  });
});
