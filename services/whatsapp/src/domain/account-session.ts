import { runAsNoOne, type Logger, type SecretBox } from '@asistente/kit';
import { WHATSAPP_QR_COLUMN } from './secret-columns.js';
import type { CloseKind, DeliveryStatus, InboundMessage, SocketFactory, SocketHandlers, WhatsAppSocket } from './whatsapp-socket.js';
import type { AccountsRepository } from './accounts.repository.js';
import { GAVE_UP_REASON } from './connect-advice.js';
import type { AuthStateRepository } from './auth-state.repository.js';
import type { InboundService } from './inbound.service.js';
import type { MessagesRepository } from './messages.repository.js';
import type { OutboundService } from './outbound.service.js';

export interface SessionTiming {
  /** First reconnect delay; doubles per failed attempt up to backoffMaxMs, with jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** An open socket silent for this long is restarted by the watchdog. */
  staleMs: number;
  watchdogMs: number;
  /**
   * An account that never linked gives up after this many failed attempts or this long after the first one
   * (WHATSAPP_CONNECT_MAX_ATTEMPTS / WHATSAPP_CONNECT_MAX_MS): state `failed` until the owner retries.
   */
  giveUpAttempts: number;
  giveUpMs: number;
}

export const DEFAULT_TIMING: SessionTiming = {
  backoffBaseMs: 2_000,
  backoffMaxMs: 60_000,
  staleMs: 10 * 60_000,
  watchdogMs: 30_000,
  giveUpAttempts: 5,
  giveUpMs: 180_000,
};

/**
 * Told what a session stored once it is stored: a provider of the messaging port (adapters/baileys-provider.ts)
 * hands it to its intake. Its failure is logged and never stops the session.
 */
export interface SessionObserver {
  /** Real-time messages just stored, the number's own included (`fromMe`); history syncs are not told. */
  stored(userId: string, messages: InboundMessage[]): Promise<void>;
  /** Delivery statuses just written for sent messages (by WhatsApp id). */
  statuses(userId: string, updates: { waId: string; status: DeliveryStatus }[]): Promise<void>;
}

export interface SessionDeps {
  factory: SocketFactory;
  accounts: AccountsRepository;
  authState: AuthStateRepository;
  messages: MessagesRepository;
  inbound: InboundService;
  outbound: OutboundService;
  box: SecretBox;
  log: Logger;
  timing: SessionTiming;
  /** Who hears what the sessions stored (the session manager's `observe`). */
  observers?: readonly SessionObserver[];
}

export const qrContext = (userId: string) => ({ userId, table: WHATSAPP_QR_COLUMN.table, column: WHATSAPP_QR_COLUMN.column });

const STORE_ATTEMPTS = 4;
/** Messages stored per transaction at most. */
const MAX_BATCH = 500;

async function retrying<T>(work: () => Promise<T>, log: Logger): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= STORE_ATTEMPTS) throw error;
      log.warn({ err: error, attempt }, 'whatsapp messages not stored, retrying');
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}

/** How often the last-event time is written (the watchdog and the in-memory copy see every event). */
const TOUCH_EVERY_MS = 5_000;

/**
 * One account's socket on the replica holding its lease: connects, shows QRs, reconnects transient closes with
 * exponential backoff and jitter, never reconnects a logged-out session (creds wiped), restarts a socket that
 * went silent, and feeds what arrives to the inbound service one batch at a time, in arrival order.
 */
export class AccountSession {
  private socket: WhatsAppSocket | undefined;
  private open = false;
  private stopped = false;
  private generation = 0;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private lastActivity = Date.now();
  private lastTouch = 0;
  private decryptFailures = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private delivering: Promise<void> | undefined;
  private inboundBuffer: { live: boolean; messages: InboundMessage[] }[] = [];
  private inboundScheduled = false;
  private deliverAgain = false;

  constructor(
    readonly userId: string,
    private readonly deps: SessionDeps,
  ) {}

  get isOpen(): boolean {
    return this.open;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  async start(): Promise<void> {
    this.watchdog = setInterval(() => this.checkStale(), this.deps.timing.watchdogMs);
    this.watchdog.unref();
    await this.connectSocket();
  }

  /** Waiting out a backoff delay before the next attempt. */
  get isRetrying(): boolean {
    return this.retryTimer !== undefined;
  }

  /** Skips a pending backoff wait (the user pressed connect again). */
  async reconnectNow(): Promise<void> {
    if (this.open || this.stopped || !this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.attempt = 0;
    this.socket?.end();
    await this.connectSocket();
  }

  /** Closes the socket and keeps the link (disconnect, lease lost, shutdown). */
  stop(): void {
    this.stopped = true;
    this.open = false;
    this.generation++;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    clearInterval(this.watchdog);
    this.socket?.end();
    this.socket = undefined;
  }

  /** Unlinks the device from the phone, then stops. */
  async logout(): Promise<void> {
    const socket = this.socket;
    this.generation++; // the close that follows the unlink is expected, not news to act on
    await socket?.logout().catch((error: unknown) => this.deps.log.warn({ err: error }, 'whatsapp logout failed'));
    this.stop();
  }

  /** Drained work: inbound batches stored, sends attempted. Tests and shutdown wait on it. */
  async idle(): Promise<void> {
    await this.queue;
    await this.delivering;
  }

  lookup(digits: string): Promise<string | null> {
    return this.open && this.socket ? this.socket.lookup(digits) : Promise.resolve(null);
  }

  /** Delivers pending messages; a call during a delivery run makes it go round once more. */
  kick(): void {
    if (!this.open || !this.socket) return;
    if (this.delivering) {
      this.deliverAgain = true;
      return;
    }
    const socket = this.socket;
    // A member's send kicks the run, but it delivers everyone's queued messages: none of their events may name
    // that member by inheriting the request's (each names its own sender, from the message).
    this.delivering = runAsNoOne(async () => {
      do {
        this.deliverAgain = false;
        await this.deps.outbound.drain(this.userId, (next) => socket.sendText(next.chatJid, next.body, next.waId), () => this.open && this.socket === socket);
      } while (this.deliverAgain && this.open);
    })
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'whatsapp delivery failed'))
      .finally(() => {
        this.delivering = undefined;
      });
  }

  private enqueue(work: () => Promise<unknown>): void {
    this.queue = this.queue.then(work).catch((error: unknown) => this.deps.log.error({ err: error }, 'whatsapp event not processed'));
  }

  private async connectSocket(): Promise<void> {
    const { accounts, authState, factory } = this.deps;
    const generation = ++this.generation;
    this.open = false;
    // A retry after an error keeps showing the error (and its reason) until a QR or the open connection.
    if (this.attempt === 0) await accounts.setState(this.userId, { state: 'connecting' });
    const handlers = this.handlers(generation);
    try {
      const socket = await factory.connect(authState.storeFor(this.userId, () => handlers.decryptFailure()), handlers);
      if (generation !== this.generation) socket.end();
      else this.socket = socket;
    } catch (error) {
      this.deps.log.warn({ err: error }, 'whatsapp socket could not start');
      handlers.close('transient', 'No se pudo iniciar la conexión con WhatsApp. Reintentando…');
    }
  }

  /** Each observer in turn; one that fails is logged and the session goes on. */
  private async tell(news: (observer: SessionObserver) => Promise<void>): Promise<void> {
    for (const observer of this.deps.observers ?? []) {
      await news(observer).catch((error: unknown) => this.deps.log.warn({ err: error }, 'whatsapp session observer failed'));
    }
  }

  private handlers(generation: number): SocketHandlers {
    const { accounts, inbound, messages, box, log } = this.deps;
    const current = () => generation === this.generation && !this.stopped;
    const when = (work: () => Promise<unknown>) => {
      if (current()) this.enqueue(async () => (current() ? work() : undefined));
    };
    return {
      qr: (qr) =>
        when(async () => {
          // Loaded by the first QR, not with the service: only a number being linked ever shows one.
          const { default: QRCode } = await import('qrcode');
          const image = await QRCode.toDataURL(qr, { margin: 1, width: 280 });
          await accounts.setState(this.userId, { state: 'qr', qrEnc: box.seal(image, qrContext(this.userId)), error: null, qrShown: true });
        }),
      open: (me) =>
        when(async () => {
          this.open = true;
          this.attempt = 0;
          await accounts.setState(this.userId, { state: 'connected', qrEnc: null, error: null, linked: true, phone: me.phone ? `+${me.phone}` : null, name: me.name });
          this.kick();
        }),
      close: (kind, reason) => {
        if (generation !== this.generation) return;
        this.open = false;
        this.socket = undefined;
        when(() => this.onClose(kind, reason));
      },
      messages: (batch, live) => {
        // Events that arrive while a batch is being stored wait together and go in one transaction, in order.
        // Up to MAX_BATCH messages per transaction (one outbox insert carries an event per message).
        for (const message of batch) {
          const last = this.inboundBuffer.at(-1);
          if (last && last.live === live && last.messages.length < MAX_BATCH) last.messages.push(message);
          else this.inboundBuffer.push({ live, messages: [message] });
        }
        if (this.inboundScheduled) return;
        this.inboundScheduled = true;
        when(async () => {
          this.inboundScheduled = false;
          const groups = this.inboundBuffer.splice(0);
          for (const group of groups) {
            // Storing is idempotent (one transaction, unique ids): a failed write is retried, not dropped.
            const result = await retrying(() => inbound.store(this.userId, group.messages, group.live), log);
            if (result.autoReplies > 0) this.kick();
            if (group.live) await this.tell((observer) => observer.stored(this.userId, group.messages));
          }
        });
      },
      statuses: (updates) =>
        when(async () => {
          for (const { waId, status } of updates) await messages.advanceStatus(this.userId, waId, status);
          await this.tell((observer) => observer.statuses(this.userId, updates));
        }),
      contacts: (contacts) => when(() => inbound.contacts(this.userId, contacts)),
      lidMappings: (mappings) => when(() => inbound.mapLids(this.userId, mappings)),
      decryptFailure: () => {
        // Counted and written in bulk: a burst of Bad MACs must not become a burst of log lines or writes.
        if (this.decryptFailures++ === 0) {
          when(async () => {
            const count = this.decryptFailures;
            this.decryptFailures = 0;
            log.warn({ count }, 'whatsapp messages could not be decrypted');
            await accounts.addDecryptFailures(this.userId, count);
          });
        }
      },
      activity: () => {
        this.lastActivity = Date.now();
        if (this.lastActivity - this.lastTouch >= TOUCH_EVERY_MS) {
          this.lastTouch = this.lastActivity;
          const at = new Date(this.lastActivity);
          when(() => accounts.touch(this.userId, at));
        }
      },
    };
  }

  private async onClose(kind: CloseKind, reason: string): Promise<void> {
    const { accounts, authState, log } = this.deps;
    if (kind === 'logged_out') {
      // The phone unlinked us: the creds are dead. Reconnecting would only loop; the user scans a new QR.
      // Unwanted before stopped: a lease tick in between must not see a wanted account without a socket.
      await accounts.want(this.userId, false);
      this.stop();
      await authState.wipe(this.userId);
      await accounts.setState(this.userId, { state: 'logged_out', linked: false, qrEnc: null, error: reason });
      return;
    }
    if (kind === 'restart') {
      await this.connectSocket();
      return;
    }
    const account = await accounts.find(this.userId);
    // Read from the row, not this socket's memory: a replica that took the socket over knows a QR was shown.
    if (!account?.linked && account?.qrShown) {
      // The QRs ran out unscanned: stop here instead of showing QRs forever; "Actualizar QR" starts again.
      await accounts.want(this.userId, false);
      this.stop();
      await accounts.setState(this.userId, { state: 'disconnected', qrEnc: null, error: null });
      return;
    }
    let shown = reason;
    if (!account?.linked) {
      // Never linked: retrying forever would only say "Reintentando…" forever. Bounded, then said plainly.
      const { attempts, sinceFirstMs } = await accounts.recordFailedAttempt(this.userId);
      const { giveUpAttempts, giveUpMs } = this.deps.timing;
      if (attempts >= giveUpAttempts || sinceFirstMs >= giveUpMs) {
        log.warn({ kind, attempts, sinceFirstMs }, 'whatsapp could not connect an account that never linked; stopped until the owner retries');
        await accounts.want(this.userId, false);
        this.stop();
        await accounts.setState(this.userId, { state: 'failed', qrEnc: null, error: GAVE_UP_REASON });
        return;
      }
      shown = `${reason} (intento ${attempts} de ${giveUpAttempts})`;
    }
    const floor = kind === 'replaced' ? 30_000 : 0;
    const { backoffBaseMs, backoffMaxMs } = this.deps.timing;
    const delay = Math.max(floor, Math.min(backoffMaxMs, backoffBaseMs * 2 ** this.attempt) * (0.5 + Math.random() / 2));
    this.attempt++;
    log.info({ kind, attempt: this.attempt, delayMs: Math.round(delay) }, 'whatsapp socket closed, reconnecting');
    // The wait is armed before the state says `error`: whoever reads that state and asks to retry now (a
    // connect here or through another replica) finds a wait to skip. The next socket's own events queue
    // behind this handler, so its state cannot be overwritten by the writes below.
    const generation = this.generation;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (generation === this.generation && !this.stopped) void this.connectSocket();
    }, delay);
    this.retryTimer.unref();
    await accounts.setState(this.userId, { state: 'error', qrEnc: null, error: shown });
    await accounts.recordReconnect(this.userId);
  }

  private checkStale(): void {
    if (!this.open || Date.now() - this.lastActivity < this.deps.timing.staleMs) return;
    this.deps.log.warn({ silentMs: Date.now() - this.lastActivity }, 'whatsapp socket silent, restarting it');
    const socket = this.socket;
    this.lastActivity = Date.now();
    this.generation++;
    this.open = false;
    socket?.end();
    this.enqueue(async () => {
      await this.deps.accounts.recordReconnect(this.userId);
      await this.connectSocket();
    });
  }
}
