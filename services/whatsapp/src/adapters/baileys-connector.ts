// The real WhatsApp socket: @whiskeysockets/baileys 7.0.0-rc14 with a pinned protocol version and the
// auth state in the service's sealed key-per-row store. Nothing here reaches the internet on its own
// (no fetchLatest*); the socket URL is WhatsApp's unless WHATSAPP_WS_URL points elsewhere (proxies, tests).
import { createHash, randomBytes } from 'node:crypto';
import type {
  AuthenticationCreds,
  SignalDataSet,
  SignalDataTypeMap,
  SignalKeyStore,
  UserFacingSocketConfig,
  WAMessage,
  WASocket,
} from '@whiskeysockets/baileys';
import { traceClientCall, withDeadline, type Logger } from '@asistente/kit';
import type { AuthStore, CloseKind, SocketFactory, SocketHandlers, WhatsAppSocket } from '../domain/whatsapp-socket.js';

type Baileys = typeof import('@whiskeysockets/baileys');
type Translation = typeof import('./baileys-messages.js');

/**
 * Baileys (and the translation of its messages, which needs it) is loaded by the first connection, not with
 * the service: ~45 MB resident that a deployment without WhatsApp, or a replica holding no account, never
 * uses. Node keeps the module once loaded, so later connections find it at once.
 */
async function loadBaileys(): Promise<{ sdk: Baileys; translation: Translation }> {
  const [sdk, translation] = await Promise.all([import('@whiskeysockets/baileys'), import('./baileys-messages.js')]);
  return { sdk, translation };
}

/** WhatsApp Web's protocol version, pinned: asking WhatsApp for the latest would be a call we do not control. */
export const WA_VERSION: [number, number, number] = [2, 3000, 1043857760];

/** The part of Baileys' socket the service uses; the tests' fake socket implements exactly this. */
export type BaileysSocket = Pick<WASocket, 'ev' | 'sendMessage' | 'end' | 'logout' | 'user'> &
  Partial<Pick<WASocket, 'onWhatsApp'>>;

export type MakeSocket = (config: UserFacingSocketConfig) => BaileysSocket;

export interface BaileysConnectorOptions {
  log: Logger;
  /** WHATSAPP_WS_URL, for a proxy or a local test peer. */
  webSocketUrl?: string | undefined;
  connectTimeoutMs?: number;
  /** Tests pass a fake built on Baileys' makeEventBuffer; the product uses makeWASocket. */
  makeSocket?: MakeSocket;
}

const LOOKUP_TIMEOUT_MS = 10_000;
const SEND_TIMEOUT_MS = 30_000;

function closeKind(code: number | undefined, reason: Baileys['DisconnectReason']): CloseKind {
  switch (code) {
    case reason.loggedOut:
    case reason.forbidden:
    case reason.multideviceMismatch:
      return 'logged_out';
    case reason.connectionReplaced:
      return 'replaced';
    case reason.restartRequired:
      return 'restart';
    default:
      return 'transient';
  }
}

/** The Spanish sentence the status shows for a close. */
function closeReason(code: number | undefined, reason: Baileys['DisconnectReason']): string {
  switch (code) {
    case reason.loggedOut:
      return 'El teléfono desvinculó este dispositivo.';
    case reason.forbidden:
      return 'WhatsApp rechazó la sesión.';
    case reason.multideviceMismatch:
      return 'La sesión ya no es válida.';
    case reason.connectionReplaced:
      return 'Otra sesión abrió esta cuenta de WhatsApp.';
    case reason.restartRequired:
      return 'WhatsApp pidió reiniciar la conexión.';
    case reason.connectionClosed:
      return 'WhatsApp cerró la conexión. Reintentando…';
    case reason.timedOut:
      return 'No se pudo contactar con WhatsApp (tiempo de espera agotado). Reintentando…';
    case reason.unavailableService:
      return 'El servicio de WhatsApp no está disponible. Reintentando…';
    default:
      return 'Se perdió la conexión con WhatsApp. Reintentando…';
  }
}

const encoder = ({ BufferJSON }: Baileys) => (value: unknown): string => JSON.stringify(value, BufferJSON.replacer);
const decoder = ({ BufferJSON }: Baileys) => (text: string): unknown => JSON.parse(text, BufferJSON.reviver) as unknown;

/** Baileys' signal key store over the service's key-per-row store: `<type>-<id>` rows, JSON with buffers. */
function keyStore(store: AuthStore, sdk: Baileys): SignalKeyStore {
  const { proto } = sdk;
  const encode = encoder(sdk);
  const decode = decoder(sdk);
  return {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const rows = await store.get(ids.map((id) => `${type}-${id}`));
      const result: Record<string, SignalDataTypeMap[T]> = {};
      for (const id of ids) {
        const text = rows.get(`${type}-${id}`);
        if (text === undefined) continue;
        let value = decode(text);
        if (type === 'app-state-sync-key') value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
        result[id] = value as SignalDataTypeMap[T];
      }
      return result;
    },
    async set(data: SignalDataSet) {
      const entries = new Map<string, string | null>();
      for (const [type, values] of Object.entries(data)) {
        for (const [id, value] of Object.entries(values ?? {})) entries.set(`${type}-${id}`, value ? encode(value) : null);
      }
      await store.set(entries);
    },
  };
}

export class BaileysConnector implements SocketFactory {
  constructor(private readonly options: BaileysConnectorOptions) {}

  /**
   * Baileys' generateMessageIDV2 (no user id), written out so that an id, which a send or an automatic answer
   * takes before any socket of this process has loaded Baileys, does not load it: `3EB0` and 18 hex digits
   * of SHA-256 over the time in seconds, 20 empty bytes and 16 random ones.
   */
  newMessageId(): string {
    const data = Buffer.alloc(8 + 20 + 16);
    data.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 1000)));
    randomBytes(16).copy(data, 28);
    return '3EB0' + createHash('sha256').update(data).digest('hex').toUpperCase().substring(0, 18);
  }

  async connect(store: AuthStore, handlers: SocketHandlers): Promise<WhatsAppSocket> {
    const { log } = this.options;
    const { sdk, translation } = await loadBaileys();
    const { initAuthCreds, jidNormalizedUser, makeCacheableSignalKeyStore, makeWASocket } = sdk;
    const encode = encoder(sdk);
    const decode = decoder(sdk);
    const saved = (await store.get(['creds'])).get('creds');
    const creds = saved === undefined ? initAuthCreds() : (decode(saved) as AuthenticationCreds);
    const baileysLog = log.child({ module: 'baileys' }, { level: 'error' });
    const makeSocket = this.options.makeSocket ?? ((config: UserFacingSocketConfig) => makeWASocket(config));
    const socket = makeSocket({
      auth: { creds, keys: makeCacheableSignalKeyStore(keyStore(store, sdk), baileysLog) },
      version: WA_VERSION,
      logger: baileysLog,
      browser: ['Mi Asistente.IA', 'Chrome', '1.0.0'],
      markOnlineOnConnect: false,
      syncFullHistory: false,
      connectTimeoutMs: this.options.connectTimeoutMs ?? 20_000,
      ...(this.options.webSocketUrl ? { waWebSocketUrl: this.options.webSocketUrl } : {}),
    });
    let open = false;
    let closed = false;
    let credsSaved: Promise<void> = Promise.resolve();
    const ownJid = () => (socket.user?.id ? jidNormalizedUser(socket.user.id) : null);

    socket.ev.process(async (events) => {
      try {
        handlers.activity();
        const update = events['connection.update'];
        if (update?.qr) handlers.qr(update.qr);
        if (update?.connection === 'open') {
          open = true;
          const id = ownJid();
          handlers.open({ phone: id ? id.split('@')[0] ?? null : null, name: socket.user?.name ?? socket.user?.notify ?? null });
        }
        const history = events['messaging-history.set'];
        if (history) {
          if (history.lidPnMappings?.length) handlers.lidMappings(history.lidPnMappings);
          if (history.contacts.length) handlers.contacts(history.contacts.map(contactInfo));
          this.deliverMessages(translation, handlers, history.messages, false, ownJid());
        }
        const upsert = events['messages.upsert'];
        if (upsert) this.deliverMessages(translation, handlers, upsert.messages, upsert.type === 'notify' && open, ownJid());
        const updates = events['messages.update'];
        if (updates) {
          const statuses = updates.flatMap(({ key, update: change }) => {
            const status = key.fromMe && key.id ? translation.deliveryStatus(change.status) : null;
            return status && key.id ? [{ waId: key.id, status }] : [];
          });
          if (statuses.length) handlers.statuses(statuses);
        }
        const contacts = [...(events['contacts.upsert'] ?? []), ...(events['contacts.update'] ?? [])];
        if (contacts.length) handlers.contacts(contacts.flatMap((c) => (c.id ? [contactInfo({ ...c, id: c.id })] : [])));
        const mapping = events['lid-mapping.update'];
        if (mapping) handlers.lidMappings([mapping]);
        // Saved in a chain and awaited before a close is reported: the socket that replaces this one (after the
        // pairing's restart, say) must read the newest creds.
        const credsUpdate = events['creds.update'];
        if (credsUpdate) {
          const snapshot = encode(Object.assign(creds, credsUpdate));
          credsSaved = credsSaved.then(() =>
            store.set(new Map([['creds', snapshot]])).catch((error: unknown) => {
              // A lost creds write is a lost session after a restart: said loudly, never swallowed.
              log.error({ err: error }, 'whatsapp credentials could not be saved');
            }),
          );
        }
        if (update?.connection === 'close' && !closed) {
          closed = true;
          open = false;
          const code = (update.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
          await credsSaved;
          handlers.close(closeKind(code, sdk.DisconnectReason), closeReason(code, sdk.DisconnectReason));
        }
      } catch (error) {
        // Baileys does not await this handler: a throw here would be an unhandled rejection ending the process.
        log.error({ err: error }, 'whatsapp socket event not handled');
      }
    });

    return {
      async sendText(jid, text, waId) {
        // Baileys throws a TypeError on a socket that never logged in: the state decides first.
        if (!open) throw new Error('WhatsApp no está conectado');
        // A client span (tracing on) with the outcome; never the recipient nor the text.
        await traceClientCall('whatsapp send', { 'rpc.system': 'baileys' }, () =>
          withDeadline(socket.sendMessage(jid, { text }, { messageId: waId }), SEND_TIMEOUT_MS, 'WhatsApp no confirmó el envío a tiempo'),
        );
      },
      async lookup(phoneDigits) {
        if (!open || !socket.onWhatsApp) return null;
        const [found] = (await withDeadline(socket.onWhatsApp(phoneDigits), LOOKUP_TIMEOUT_MS, 'WhatsApp no respondió')) ?? [];
        return found?.exists ? jidNormalizedUser(found.jid) : null;
      },
      end() {
        open = false;
        socket.end(undefined);
      },
      async logout() {
        if (open) await withDeadline(socket.logout(), LOOKUP_TIMEOUT_MS, 'WhatsApp no respondió').catch(() => undefined);
        open = false;
        socket.end(undefined);
      },
    };
  }

  private deliverMessages(translation: Translation, handlers: SocketHandlers, messages: WAMessage[], live: boolean, ownJid: string | null) {
    const inbound = [];
    for (const message of messages) {
      if (translation.isUndecryptable(message)) handlers.decryptFailure();
      const converted = translation.toInbound(message, ownJid);
      if (converted) inbound.push(converted);
    }
    if (inbound.length) handlers.messages(inbound, live);
  }
}

function contactInfo(contact: { id: string; lid?: string | undefined; phoneNumber?: string | undefined; name?: string | undefined; notify?: string | undefined; verifiedName?: string | undefined }) {
  const phoneJid = contact.phoneNumber ?? (contact.id.endsWith('@s.whatsapp.net') ? contact.id : null);
  const lid = contact.lid ?? (contact.id.endsWith('@lid') ? contact.id : null);
  return {
    jid: contact.id,
    lid,
    phoneJid,
    name: contact.name ?? contact.verifiedName ?? contact.notify ?? null,
  };
}
