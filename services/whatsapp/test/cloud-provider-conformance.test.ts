// WhatsApp's Cloud API as a provider of the messaging port passes the conformance suite against the Graph peer: connect checks the number, sends once per client id under Meta's id, customers' signed webhooks and read receipts through the service's intake, media both ways.
import { randomInt, randomUUID } from 'node:crypto';
import t from 'tap';
import type { ChannelIntake, IncomingMessage, Receipt } from '@asistente/kit';
import { createTestPlatform, insertAccount, messagingConformance, type FarCustomer } from '@asistente/kit/testing';
import { CloudApiProvider, type CloudSettings } from '../src/adapters/cloud-api/cloud-provider.js';
import { AutoRepliesRepository } from '../src/domain/auto-replies.repository.js';
import { ServiceIntake } from '../src/domain/cloud-intake.js';
import { InboundService } from '../src/domain/inbound.service.js';
import { MessagesRepository } from '../src/domain/messages.repository.js';
import { CloudApiPeer, type PeerNumber } from './cloud-api-peer.js';
import { until } from './support/harness.js';

const APP_SECRET = 'conformance-app-secret-0123456789';
const peer = await CloudApiPeer.start({ appSecret: APP_SECRET });
t.teardown(() => peer.close());
const platform = await createTestPlatform(t);
const { sql } = platform.db;
const outbox = platform.outbox('whatsapp');
const messages = new MessagesRepository(sql);
const inbound = new InboundService(sql, messages, new AutoRepliesRepository(sql), outbox, () => `local.${randomUUID()}`, !platform.config.DATABASE_URL);

/**
 * The service's own intake stores what the provider hands it (the 24-hour window reads the customer's stored
 * messages), and the suite's intake watches the same calls.
 */
const both = (stores: ChannelIntake, watches: ChannelIntake): ChannelIntake => ({
  received: async (workspaceId: string, batch: IncomingMessage[]) => {
    await stores.received(workspaceId, batch);
    await watches.received(workspaceId, batch);
  },
  receipts: async (workspaceId: string, batch: Receipt[]) => {
    await stores.receipts(workspaceId, batch);
    await watches.receipts(workspaceId, batch);
  },
});

/** A business number of its own per workspace: Meta ties a phone number id to one business. */
const numbers = new Map<string, PeerNumber>();
function numberOf(workspaceId: string): PeerNumber {
  let number = numbers.get(workspaceId);
  if (!number) {
    const id = () => String(randomInt(100_000_000_000, 999_999_999_999));
    number = { phoneNumberId: id(), businessAccountId: id(), token: `EAAG${randomUUID().replaceAll('-', '')}`, displayPhone: '+34 910 44 55 66', verifiedName: 'Clínica Dental Sol', qualityRating: 'GREEN' };
    peer.numbers.set(number.phoneNumberId, number);
    numbers.set(workspaceId, number);
  }
  return number;
}

t.test('WhatsApp over the Cloud API passes the messaging conformance suite', async (t) => {
  let provider: CloudApiProvider | undefined;
  peer.postTo(async (body, headers) => {
    await provider!.webhooks.accept(Buffer.from(body), headers['x-hub-signature-256']);
    await provider!.webhooks.process();
    return 200;
  });
  t.teardown(() => provider?.close());

  await messagingConformance<CloudSettings>(t, {
    name: 'WhatsApp (Cloud API)',
    capabilities: { media: true, receipts: true },
    provider: async (intake) => {
      provider = new CloudApiProvider({
        sql, secrets: platform.secrets, outbox, intake: both(new ServiceIntake(inbound, messages), intake), log: platform.log,
        apiUrl: peer.url, appSecret: APP_SECRET, messages, graph: { timeoutMs: 2_000, retries: 1, backoffMs: 10 },
        timing: { tickMs: 100, leaseMs: 2_000, claimMs: 2_000 },
      });
      provider.start();
      return provider;
    },
    workspace: () => insertAccount(sql),
    settings: (workspaceId) => {
      const number = numberOf(workspaceId);
      return { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId, accessToken: number.token };
    },
    customer: async (workspaceId): Promise<FarCustomer> => {
      const number = numberOf(workspaceId);
      const digits = `3462${randomInt(1_000_000, 9_999_999)}`;
      const name = 'Andrés Molina';
      const write: FarCustomer['write'] = async (content) => {
        const message =
          content.kind === 'text'
            ? { text: content.text }
            : content.media.kind === 'document'
              ? { document: { caption: content.media.caption ?? undefined, filename: content.media.fileName ?? undefined, mimeType: content.media.mimeType } }
              : { image: { caption: content.media.caption ?? undefined, mimeType: content.media.mimeType } };
        await peer.customerWrites({ from: digits, name, ...message }, number);
      };
      // Meta lets a business write freely only within 24 hours of the customer's last message: the customer
      // of every check has just written, as a customer the business answers has.
      await write({ kind: 'text', text: 'Hola, buenas' });
      await until(async () => (await sql`select 1 from whatsapp.messages where user_id = ${workspaceId} and direction = 'incoming'`).length > 0, 'the greeting stored');
      return {
        address: `+${digits}`,
        name,
        write,
        received: async () =>
          peer.received(digits).map((d) => ({ id: d.id, text: d.text, media: d.media ? { kind: d.type as 'image' | 'document' | 'audio' | 'video', caption: d.media.caption } : null })),
        read: async (id) => {
          await peer.status(id, 'read', number);
        },
      };
    },
  });
});
