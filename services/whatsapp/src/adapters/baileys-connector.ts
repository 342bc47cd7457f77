// The real WhatsApp socket: @whiskeysockets/baileys 7.0.0-rc14 with a pinned protocol version and the
// auth state in the service's sealed key-per-row store. Nothing here reaches the internet on its own
// (no fetchLatest*); the socket URL is WhatsApp's unless WHATSAPP_WS_URL points elsewhere (proxies, tests).
import {
  BufferJSON,
  DisconnectReason,
  generateMessageIDV2,
  initAuthCreds,
  jidNormalizedUser,
  makeCacheableSignalKeyStore,
  makeWASocket,
  proto,
  type AuthenticationCreds,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
  type UserFacingSocketConfig,
  type WASocket,
} from '@whiskeysockets/baileys';
import { traceClientCall, withDeadline, type Logger } from '@asistente/kit';
import { deliveryStatus, isUndecryptable, toInbound } from './baileys-messages.js';
import type { AuthStore, CloseKind, SocketFactory, SocketHandlers, WhatsAppSocket } from '../domain/whatsapp-socket.js';

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

export function closeKind(code: number | undefined): CloseKind {
  switch (code) {
    case DisconnectReason.loggedOut:
    case DisconnectReason.forbidden:
    case DisconnectReason.multideviceMismatch:
      return 'logged_out';
    case DisconnectReason.connectionReplaced:
      return 'replaced';
    case DisconnectReason.restartRequired:
      return 'restart';
    default:
      return 'transient';
  }
}

/** The Spanish sentence the status shows for a close. */
export function closeReason(code: number | undefined): string {
  switch (code) {
    case DisconnectReason.loggedOut:
      return 'El teléfono desvinculó este dispositivo. Vuelve a escanear el QR.';
    case DisconnectReason.forbidden:
      return 'WhatsApp rechazó la sesión. Vuelve a escanear el QR.';
    case DisconnectReason.multideviceMismatch:
      return 'La sesión ya no es válida. Vuelve a escanear el QR.';
    case DisconnectReason.connectionReplaced:
      return 'Otra sesión abrió esta cuenta de WhatsApp.';
    case DisconnectReason.restartRequired:
      return 'WhatsApp pidió reiniciar la conexión.';
    case DisconnectReason.connectionClosed:
      return 'WhatsApp cerró la conexión. Reintentando…';
    case DisconnectReason.timedOut:
      return 'No se pudo contactar con WhatsApp (tiempo de espera agotado). Reintentando…';
    case DisconnectReason.unavailableService:
      return 'El servicio de WhatsApp no está disponible. Reintentando…';
    default:
      return 'Se perdió la conexión con WhatsApp. Reintentando…';
  }
}

const encode = (value: unknown): string => JSON.stringify(value, BufferJSON.replacer);
const decode = (text: string): unknown => JSON.parse(text, BufferJSON.reviver) as unknown;

/** Baileys' signal key store over the service's key-per-row store: `<type>-<id>` rows, JSON with buffers. */
function keyStore(store: AuthStore): SignalKeyStore {
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

  newMessageId(): string {
    return generateMessageIDV2();
  }

  async connect(store: AuthStore, handlers: SocketHandlers): Promise<WhatsAppSocket> {
    const { log } = this.options;
    const saved = (await store.get(['creds'])).get('creds');
    const creds = saved === undefined ? initAuthCreds() : (decode(saved) as AuthenticationCreds);
    const baileysLog = log.child({ module: 'baileys' }, { level: 'error' });
    const makeSocket = this.options.makeSocket ?? ((config: UserFacingSocketConfig) => makeWASocket(config));
    const socket = makeSocket({
      auth: { creds, keys: makeCacheableSignalKeyStore(keyStore(store), baileysLog) },
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
          this.deliverMessages(handlers, history.messages, false, ownJid());
        }
        const upsert = events['messages.upsert'];
        if (upsert) this.deliverMessages(handlers, upsert.messages, upsert.type === 'notify' && open, ownJid());
        const updates = events['messages.update'];
        if (updates) {
          const statuses = updates.flatMap(({ key, update: change }) => {
            const status = key.fromMe && key.id ? deliveryStatus(change.status) : null;
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
          handlers.close(closeKind(code), closeReason(code));
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

  private deliverMessages(handlers: SocketHandlers, messages: Parameters<typeof toInbound>[0][], live: boolean, ownJid: string | null) {
    const inbound = [];
    for (const message of messages) {
      if (isUndecryptable(message)) handlers.decryptFailure();
      const converted = toInbound(message, ownJid);
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
