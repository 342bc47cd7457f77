import { randomUUID } from 'node:crypto';
import { AppError } from '../http/errors.js';
import type {
  ChannelIntake,
  IncomingMessage,
  Media,
  MediaKind,
  MessagingProvider,
  OutgoingContent,
  ProviderCapabilities,
  Receipt,
} from '../messaging/messaging-port.js';
import { waitUntil as until } from './wait-until.js';

/**
 * The messaging port's conformance suite: every provider of a channel (Baileys against its fake socket, the
 * Cloud API against its peer, the website's chat, a test's in-memory channel) passes the same checks, each a
 * subtest of its own on a workspace of its own. It asks the provider through the port only, and the customer
 * at the provider's far end through the harness.
 */

/** The part of tap's Test the suite uses, so the kit does not depend on tap. */
export interface ConformanceTest {
  test(name: string, fn: (t: ConformanceTest) => Promise<void>): Promise<unknown>;
  ok(value: unknown, message: string): unknown;
  equal(found: unknown, wanted: unknown, message: string): unknown;
  same(found: unknown, wanted: unknown, message: string): unknown;
  teardown(fn: () => unknown): void;
}

/** What reached the customer at the far end: the provider's id of it and what it carried. */
export interface DeliveredMessage {
  id: string;
  text: string | null;
  media: { kind: MediaKind; caption: string | null } | null;
}

/** A customer at the provider's far end (a phone on the fake socket, a website visitor, an in-memory peer). */
export interface FarCustomer {
  /** What the provider calls them by (a phone number or JID, a visitor id): `handleOf` turns it into a handle. */
  address: string;
  /** The name the customer goes by, as the provider will tell the intake. */
  name: string;
  /** The customer writes to the business. */
  write(content: OutgoingContent): Promise<void>;
  /** Everything the business sent them so far, in order. */
  received(): Promise<DeliveredMessage[]>;
  /** The customer's device reads a message (a provider that declares receipts reports it). */
  read?(id: string): Promise<void>;
}

export interface MessagingHarness<Settings> {
  /** The provider's name in the subtests' titles. */
  name: string;
  /** What the provider truly does beyond text: the provider must declare exactly this. */
  capabilities: ProviderCapabilities;
  /** The provider, built with the intake the suite watches (once; every check uses it). */
  provider(intake: ChannelIntake): Promise<MessagingProvider<Settings>>;
  /** A fresh workspace the provider has never seen. */
  workspace(): Promise<string>;
  /** What the owner gives `connect`. */
  settings(workspaceId: string): Settings;
  /** What the owner does outside the app to finish linking (Baileys: the phone scans the QR); none by default. */
  completeLink?(workspaceId: string): Promise<void>;
  /** A customer at the far end of a connected workspace. */
  customer(workspaceId: string): Promise<FarCustomer>;
}

/** The intake the provider delivers to, remembering everything per workspace. */
class RecordingIntake implements ChannelIntake {
  readonly messages = new Map<string, IncomingMessage[]>();
  readonly receiptsOf = new Map<string, Receipt[]>();

  received(workspaceId: string, messages: IncomingMessage[]): Promise<void> {
    this.messages.set(workspaceId, [...(this.messages.get(workspaceId) ?? []), ...messages]);
    return Promise.resolve();
  }

  receipts(workspaceId: string, receipts: Receipt[]): Promise<void> {
    this.receiptsOf.set(workspaceId, [...(this.receiptsOf.get(workspaceId) ?? []), ...receipts]);
    return Promise.resolve();
  }
}

/** Words a Spanish sentence of the product carries; an English or empty message has none of them. */
const SPANISH = /[áéíóúñ¿¡]|\b(no|el|la|los|las|de|del|un|una|este|esta|está|todavía|puede|conectado|canal|mensaje|escribe)\b/i;

/** A refusal the product would show as it is: an AppError, a client's fault or "not now", said in Spanish. */
async function refusedInSpanish(t: ConformanceTest, work: Promise<unknown>, what: string, statuses: (status: number) => boolean): Promise<void> {
  const outcome = await work.then(
    () => undefined,
    (error: unknown) => error,
  );
  t.ok(outcome instanceof AppError, `${what}: refused with an AppError`);
  if (!(outcome instanceof AppError)) return;
  t.ok(statuses(outcome.statusCode), `${what}: status ${outcome.statusCode}`);
  t.ok(SPANISH.test(outcome.message), `${what}: said in Spanish ("${outcome.message}")`);
}

const clientError = (status: number) => status >= 400 && status < 500;
const clientErrorOrUnavailable = (status: number) => clientError(status) || status === 503;

const PHOTO: Media = { kind: 'image', mimeType: 'image/png', data: Uint8Array.from([0x89, 0x50, 0x4e, 0x47]), fileName: 'foto.png', caption: 'La foto del presupuesto', size: 4 };
const IMAGE: OutgoingContent = { kind: 'media', media: PHOTO };
const DOCUMENT: OutgoingContent = { kind: 'media', media: { ...PHOTO, kind: 'document', mimeType: 'application/pdf', fileName: 'dni.pdf', caption: 'Mi DNI' } };

/** Runs every check of the port against one provider. */
export async function messagingConformance<Settings>(t: ConformanceTest, harness: MessagingHarness<Settings>): Promise<void> {
  const intake = new RecordingIntake();
  const provider = await harness.provider(intake);
  const title = (check: string) => `${harness.name}: ${check}`;

  /** A fresh workspace, connected and left so when the check ends. */
  const connected = async (t: ConformanceTest): Promise<string> => {
    const workspaceId = await harness.workspace();
    await provider.connect(workspaceId, harness.settings(workspaceId));
    await harness.completeLink?.(workspaceId);
    await until(async () => (await provider.status(workspaceId)).state === 'connected', 'the provider connected');
    t.teardown(() => provider.disconnect(workspaceId));
    return workspaceId;
  };
  const text = (body: string): OutgoingContent => ({ kind: 'text', text: body });
  const handleOf = (customer: FarCustomer): string => {
    const handle = provider.handleOf(customer.address);
    if (!handle) throw new Error(`the provider has no handle for its own customer ${customer.address}`);
    return handle;
  };
  /** Until the customer has a message with this id; how many they have. */
  const arrived = async (customer: FarCustomer, id: string): Promise<DeliveredMessage[]> =>
    until(async () => {
      const found = (await customer.received()).filter((m) => m.id === id);
      return found.length > 0 ? found : undefined;
    }, `message ${id} reaching the customer`);

  await t.test(title('it declares what it truly does beyond text'), async (t) => {
    t.same(provider.capabilities, harness.capabilities, 'media and receipts as the harness knows them');
    t.ok(provider.channel.length > 0 && provider.name.length > 0, 'it names its channel and itself');
  });

  await t.test(title('before connecting it is not connected'), async (t) => {
    const status = await provider.status(await harness.workspace());
    t.ok(status.state !== 'connected', `state ${status.state}`);
  });

  await t.test(title('connect reaches connected, naming the account'), async (t) => {
    const workspaceId = await connected(t);
    const status = await provider.status(workspaceId);
    t.equal(status.state, 'connected', 'connected');
    t.ok(status.account, `account ${status.account}`);
  });

  await t.test(title('a text reaches the customer once, under the id the send returned'), async (t) => {
    const workspaceId = await connected(t);
    const customer = await harness.customer(workspaceId);
    const sent = await provider.send(workspaceId, { handle: handleOf(customer), content: text('Su cita es el martes a las 10:00'), clientId: randomUUID() });
    t.equal(sent.handle, handleOf(customer), 'sent to the handle asked');
    t.ok(sent.at instanceof Date, 'it says when');
    const got = await arrived(customer, sent.id);
    t.equal(got.length, 1, 'once');
    t.equal(got[0]!.text, 'Su cita es el martes a las 10:00', 'with its text');
  });

  await t.test(title('the same client id again is the same message, not sent twice'), async (t) => {
    const workspaceId = await connected(t);
    const customer = await harness.customer(workspaceId);
    const clientId = randomUUID();
    const message = { handle: handleOf(customer), content: text('Le confirmamos la reserva'), clientId };
    const first = await provider.send(workspaceId, message);
    const again = await provider.send(workspaceId, message);
    t.equal(again.id, first.id, 'the same id');
    // A later message arriving means an earlier second copy would have arrived too (a channel keeps order).
    const later = await provider.send(workspaceId, { ...message, content: text('Gracias'), clientId: randomUUID() });
    await arrived(customer, later.id);
    t.equal((await customer.received()).filter((m) => m.id === first.id).length, 1, 'the customer has it once');
  });

  await t.test(title("a customer's message reaches the intake with their handle, name and text"), async (t) => {
    const workspaceId = await connected(t);
    const customer = await harness.customer(workspaceId);
    await customer.write(text('Hola, ¿tenéis hueco el jueves?'));
    const [message] = await until(async () => {
      const found = (intake.messages.get(workspaceId) ?? []).filter((m) => m.text === 'Hola, ¿tenéis hueco el jueves?');
      return found.length > 0 ? found : undefined;
    }, 'the message reaching the intake');
    t.equal(message!.handle, handleOf(customer), 'the customer\'s handle');
    t.equal(message!.name, customer.name, 'the customer\'s name');
    t.ok(message!.id, 'with the provider id');
    t.equal(message!.media, null, 'a text carries no media');
  });

  await t.test(title("handleOf the customer's address is the handle the intake saw; nonsense is no one"), async (t) => {
    const workspaceId = await connected(t);
    const customer = await harness.customer(workspaceId);
    await customer.write(text('¿Me llamáis?'));
    const message = await until(async () => (intake.messages.get(workspaceId) ?? []).find((m) => m.text === '¿Me llamáis?'), 'the message reaching the intake');
    t.equal(provider.handleOf(customer.address), message.handle, 'the same handle');
    t.equal(provider.handleOf(''), null, 'an empty address names no customer');
    t.equal(provider.handleOf('esto no es nadie'), null, 'nor does a sentence');
  });

  if (harness.capabilities.receipts) {
    await t.test(title('receipts reach the intake naming the sent id'), async (t) => {
      const workspaceId = await connected(t);
      const customer = await harness.customer(workspaceId);
      t.ok(customer.read, 'the harness can make the customer read (the provider declares receipts)');
      const sent = await provider.send(workspaceId, { handle: handleOf(customer), content: text('¿Le viene bien?'), clientId: randomUUID() });
      await arrived(customer, sent.id);
      await customer.read!(sent.id);
      const read = await until(async () => (intake.receiptsOf.get(workspaceId) ?? []).find((r) => r.id === sent.id && r.status === 'read'), 'the read receipt');
      t.equal(read.id, sent.id, 'the receipt names the sent id');
    });
  } else {
    await t.test(title('no receipts declared: none reach the intake'), async (t) => {
      const workspaceId = await connected(t);
      const customer = await harness.customer(workspaceId);
      const sent = await provider.send(workspaceId, { handle: handleOf(customer), content: text('¿Le viene bien?'), clientId: randomUUID() });
      await arrived(customer, sent.id);
      await customer.read?.(sent.id);
      // Answered after the read: a receipt it caused would have come before this message's arrival.
      await customer.write(text('Sí, perfecto'));
      await until(async () => (intake.messages.get(workspaceId) ?? []).some((m) => m.text === 'Sí, perfecto'), 'the answer reaching the intake');
      t.same(intake.receiptsOf.get(workspaceId) ?? [], [], 'no receipt reached the intake');
    });
  }

  if (harness.capabilities.media) {
    await t.test(title('media both ways, with its kind and caption'), async (t) => {
      const workspaceId = await connected(t);
      const customer = await harness.customer(workspaceId);
      const sent = await provider.send(workspaceId, { handle: handleOf(customer), content: IMAGE, clientId: randomUUID() });
      const [got] = await arrived(customer, sent.id);
      t.same(got!.media, { kind: 'image', caption: 'La foto del presupuesto' }, 'the customer got the image with its caption');
      await customer.write(DOCUMENT);
      const message = await until(async () => (intake.messages.get(workspaceId) ?? []).find((m) => m.media?.caption === 'Mi DNI'), 'the media reaching the intake');
      t.equal(message.media!.kind, 'document', 'the intake got a document');
      t.equal(message.handle, handleOf(customer), 'from the customer\'s handle');
    });
  } else {
    await t.test(title('no media declared: a media send is refused in Spanish'), async (t) => {
      const workspaceId = await connected(t);
      const customer = await harness.customer(workspaceId);
      await refusedInSpanish(t, provider.send(workspaceId, { handle: handleOf(customer), content: IMAGE, clientId: randomUUID() }), 'a media send', clientError);
      t.same(await customer.received(), [], 'nothing reached the customer');
    });
  }

  await t.test(title('after disconnecting it is not connected, and a send is refused in Spanish'), async (t) => {
    const workspaceId = await connected(t);
    const customer = await harness.customer(workspaceId);
    await provider.disconnect(workspaceId);
    const status = await provider.status(workspaceId);
    t.ok(status.state !== 'connected', `state ${status.state}`);
    const refused = provider.send(workspaceId, { handle: handleOf(customer), content: text('¿Sigue ahí?'), clientId: randomUUID() });
    await refusedInSpanish(t, refused, 'a send after disconnecting', clientErrorOrUnavailable);
  });
}
