// A fake WhatsApp socket for the service's tests: its `ev` is Baileys' own makeEventBuffer, so events reach the
// service exactly as the real socket delivers them, and the messages it emits are real WAMessage shapes
// (phone and @lid JIDs with their Alt forms, history sync, captions, reactions, protocol messages).
import { DisconnectReason, makeEventBuffer, proto, type UserFacingSocketConfig, type WAMessage } from '@whiskeysockets/baileys';
import { createLogger } from '@asistente/kit';
import type { BaileysSocket, MakeSocket } from '../../src/adapters/baileys-connector.js';

export const OWN_JID = '34600000001@s.whatsapp.net';

const silent = createLogger('silent', 'fake-whatsapp');
const closeError = (statusCode: number) => Object.assign(new Error('closed'), { output: { statusCode } });

export interface SentMessage {
  jid: string;
  text: string;
  messageId: string | undefined;
}

export class FakeSocket {
  readonly ev = makeEventBuffer(silent);
  user: BaileysSocket['user'];
  ended = false;
  loggedOut = false;
  readonly sent: SentMessage[] = [];
  /** When each of `sent` was accepted (Date.now()). */
  readonly sentAt: number[] = [];
  /** The next sends throw (a WhatsApp refusal while the socket stays open). */
  failSends = 0;

  constructor(
    readonly config: UserFacingSocketConfig,
    private readonly phone: FakePhone,
  ) {
    const linked = Boolean(config.auth.creds.me);
    setImmediate(() => {
      if (this.ended) return;
      if (phone.refuse) return this.close(DisconnectReason.connectionLost);
      if (linked) this.open();
      else this.ev.emit('connection.update', { connection: 'connecting', qr: `2@fake-ref-${phone.qrCount++},noise,identity,adv` });
    });
  }

  open(): void {
    this.user = { id: `${OWN_JID.split('@')[0]}:7@s.whatsapp.net`, name: 'Tienda Luz' };
    this.ev.emit('connection.update', { connection: 'open' });
  }

  close(code: number): void {
    if (this.ended) return;
    this.ended = true;
    this.ev.emit('connection.update', { connection: 'close', lastDisconnect: { error: closeError(code), date: new Date() } });
  }

  /** The phone scans the QR: creds gain `me`, then WhatsApp asks for a restart (515), as in real pairing. */
  scan(): void {
    this.ev.emit('creds.update', { me: { id: `${OWN_JID.split('@')[0]}:7@s.whatsapp.net`, name: 'Tienda Luz' }, registered: true });
    this.close(DisconnectReason.restartRequired);
  }

  notify(messages: WAMessage[]): void {
    this.ev.emit('messages.upsert', { messages, type: 'notify' });
  }

  asSocket(): BaileysSocket {
    const currentUser = () => this.user;
    return {
      ev: this.ev,
      get user() {
        return currentUser();
      },
      sendMessage: async (jid: string, content: unknown, options?: { messageId?: string }) => {
        if (this.ended) throw new TypeError("Cannot read properties of undefined (reading 'id')");
        if (this.failSends > 0) {
          this.failSends--;
          throw new Error('fake refusal');
        }
        const text = (content as { text: string }).text;
        this.sent.push({ jid, text, messageId: options?.messageId });
        this.sentAt.push(Date.now());
        const key = { remoteJid: jid, fromMe: true, id: options?.messageId ?? 'X' };
        setImmediate(() => this.ev.emit('messages.update', [{ key, update: { status: proto.WebMessageInfo.Status.SERVER_ACK } }]));
        return undefined;
      },
      end: () => this.close(DisconnectReason.connectionClosed),
      logout: async () => {
        this.loggedOut = true;
        this.close(DisconnectReason.loggedOut);
      },
      onWhatsApp: async (...numbers: string[]) =>
        numbers.map((n) => ({ jid: `${n}@s.whatsapp.net`, exists: this.phone.known.has(n) })),
    } as unknown as BaileysSocket;
  }
}

/** The phone side: every socket the service opens, and the knobs a test turns. */
export class FakePhone {
  readonly sockets: FakeSocket[] = [];
  qrCount = 0;
  refuse = false;
  /** Numbers (digits) WhatsApp says exist, for the 52 1 / 54 9 lookup. */
  readonly known = new Set<string>();

  readonly makeSocket: MakeSocket = (config) => {
    const socket = new FakeSocket(config, this);
    this.sockets.push(socket);
    return socket.asSocket();
  };

  get current(): FakeSocket {
    const socket = this.sockets.at(-1);
    if (!socket) throw new Error('no socket yet');
    return socket;
  }
}

let seq = 0;
export function waMessage(fields: {
  id?: string;
  remoteJid: string;
  remoteJidAlt?: string;
  participant?: string;
  fromMe?: boolean;
  text?: string;
  message?: proto.IMessage;
  at?: number;
  pushName?: string;
  stub?: number;
}): WAMessage {
  return {
    key: {
      id: fields.id ?? `3EB0${(++seq).toString().padStart(8, '0')}`,
      remoteJid: fields.remoteJid,
      fromMe: fields.fromMe ?? false,
      ...(fields.remoteJidAlt ? { remoteJidAlt: fields.remoteJidAlt } : {}),
      ...(fields.participant ? { participant: fields.participant } : {}),
    },
    message: fields.message ?? (fields.text !== undefined ? { conversation: fields.text } : undefined),
    messageTimestamp: fields.at ?? Math.floor(Date.now() / 1000),
    ...(fields.pushName ? { pushName: fields.pushName } : {}),
    ...(fields.stub ? { messageStubType: fields.stub } : {}),
  } as WAMessage;
}
