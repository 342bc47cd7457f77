import type { Test } from 'tap';
import { MailConnectError } from '../../src/domain/mail-errors.js';
import type { MailTransport, TransportLogin } from '../../src/domain/mail-transport.js';
import { rawMail } from '../fixtures/imap-peer.js';

/** What the transport port's conformance suite needs of one provider: the transport, logins, and what its far side received. */
export interface TransportHarness {
  transport: MailTransport;
  login: TransportLogin;
  refused: TransportLogin;
  /** A login whose server cannot be reached. */
  unreachable: TransportLogin;
  /** The n-th mail (1-based) the far side accepted, once it has it: its envelope and raw source. */
  received(count: number): Promise<{ envelope: { from: string; to: string[] }; raw: Buffer }>;
}

/**
 * The mail transport port's conformance suite: the same checks for every provider, through the port alone. A
 * provider passes when it proves a login, delivers a raw message to its envelope's recipients answering the
 * message's id, and refuses a bad login or an unreachable server with a Spanish MailConnectError, never a hang.
 */
export async function transportConformance(t: Test, name: string, build: (t: Test) => Promise<TransportHarness>): Promise<void> {
  await t.test(`transport port: ${name}`, async (t) => checks(t, await build(t)));
}

async function checks(t: Test, harness: TransportHarness): Promise<void> {
  const { transport, login } = harness;

  await t.test('proves a login; refuses a bad one as refused, in Spanish', async (t) => {
    await transport.verify(login);
    const error: unknown = await transport.verify(harness.refused).catch((e: unknown) => e);
    t.ok(error instanceof MailConnectError && error.authFailed, 'refused, the credentials named as the cause');
    t.match(error instanceof Error ? error.message : '', /^No se pudo conectar al servidor/);
  });

  await t.test("sends to the envelope's recipients, answering the message's id", async (t) => {
    const raw = Buffer.from(rawMail({ from: 'yo@ejemplo.com', to: 'cliente@ejemplo.com', subject: 'Factura', body: 'Adjunto la factura', messageId: '<factura-1@ejemplo.com>' }));
    const sent = await transport.send(login, { from: 'yo@ejemplo.com', to: ['cliente@ejemplo.com', 'copia@ejemplo.com'] }, raw);
    t.equal(sent.messageId, '<factura-1@ejemplo.com>');
    const got = await harness.received(1);
    t.same(got.envelope, { from: 'yo@ejemplo.com', to: ['cliente@ejemplo.com', 'copia@ejemplo.com'] });
    t.match(got.raw.toString('utf8'), /Subject: Factura[\s\S]*Adjunto la factura/, 'the message as written');
  });

  await t.test('a refused login or an unreachable server fails the send in Spanish', async (t) => {
    const raw = Buffer.from(rawMail({ from: 'yo@ejemplo.com', to: 'cliente@ejemplo.com', subject: 'No sale', body: 'x' }));
    for (const [what, bad] of [['refused', harness.refused], ['unreachable', harness.unreachable]] as const) {
      const error: unknown = await transport.send(bad, { from: 'yo@ejemplo.com', to: ['cliente@ejemplo.com'] }, raw).catch((e: unknown) => e);
      t.ok(error instanceof MailConnectError, `${what}: a MailConnectError`);
      t.match(error instanceof Error ? error.message : '', /^No se pudo conectar al servidor/, `${what}: in Spanish`);
    }
  });
}
