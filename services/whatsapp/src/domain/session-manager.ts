import type { WhatsAppConnectResult, WhatsAppHealth, WhatsAppStatus } from '@asistente/contracts';
import { AppError, LeaseLoop, type LeaseTiming as LoopTiming, type Logger, type SecretBox } from '@asistente/kit';
import type { AccountRow, AccountsRepository } from './accounts.repository.js';
import { AccountSession, qrContext, type SessionDeps, type SessionObserver } from './account-session.js';
import type { AuthStateRepository } from './auth-state.repository.js';
import type { MessagesRepository } from './messages.repository.js';
import { notLinkedYet } from './connect-advice.js';

/** The lease loop's timing (its tick also delivers any stored send whose notification was missed). */
export interface LeaseTiming extends LoopTiming {
  /** How long POST /connect waits for the first QR or the open connection. */
  connectWaitMs: number;
}

export const DEFAULT_LEASE: LeaseTiming = { ttlMs: 20_000, tickMs: 5_000, connectWaitMs: 25_000 };

const WAIT_POLL_MS = 100;
/** A connect asked of (or waiting on) a replica that is shutting down. */
const RESTARTING = 'El servicio de WhatsApp se está reiniciando. Vuelve a intentarlo en unos segundos.';
/**
 * A disconnect, logout or reconnect asked of a replica that does not hold the socket, for the one that does
 * (a reconnect skips the owner's backoff wait, or restarts a socket that gave up, so a retry is never a 503).
 */
interface HandOver {
  userId: string;
  action: 'disconnect' | 'logout' | 'reconnect';
  /** The replica that sent it. */
  from: string;
}

/**
 * The sockets of this replica. A lease row in Postgres names the one replica that holds an account's socket:
 * it renews it every tick, and a replica that finds an expired lease on a wanted account takes it over.
 * Every replica answers the API from the account row; sends are stored, then the owner is woken to deliver them.
 */
export class SessionManager {
  readonly owner: string;
  /** The sockets of the accounts this replica holds. */
  private readonly sessions: LeaseLoop<AccountSession>;
  private readonly unlisten: (() => Promise<void>)[] = [];
  private readonly observers: SessionObserver[] = [];

  private readonly accounts: AccountsRepository;
  private readonly authState: AuthStateRepository;
  private readonly messages: MessagesRepository;
  private readonly box: SecretBox;
  private readonly log: Logger;

  constructor(
    private readonly deps: SessionDeps,
    private readonly lease: LeaseTiming,
    /** The embedded process is the only replica: it takes leases left by its previous run without waiting. */
    private readonly exclusive: boolean,
  ) {
    ({ accounts: this.accounts, authState: this.authState, messages: this.messages, box: this.box, log: this.log } = deps);
    this.sessions = new LeaseLoop({
      store: this.accounts.leases,
      timing: lease,
      exclusive,
      label: 'whatsapp',
      log: this.log,
      create: (userId) => new AccountSession(userId, { ...this.deps, observers: this.observers }),
      // A lost socket is not waited for (the tick goes on); a closing replica waits for each to finish.
      stop: async (session, closing) => {
        session.stop();
        if (closing) await session.idle();
      },
      afterTick: () => {
        for (const session of this.sessions.values()) session.kick();
      },
    });
    this.owner = this.sessions.owner;
  }

  private get closed(): boolean {
    return this.sessions.closed;
  }

  /** Reconnects the accounts that were connected before a restart (no QR: the creds are in the database). */
  start(): void {
    if (!this.exclusive) {
      this.listenForHandOver();
      this.listenForSends();
    }
    this.sessions.start();
  }

  /** Sockets closed and leases released, not left to expire: another replica (or the next run) takes the accounts over at once. */
  async close(): Promise<void> {
    const closing = this.sessions.close();
    await Promise.all(this.unlisten.map((unlisten) => unlisten().catch(() => undefined)));
    await closing;
  }

  /**
   * A disconnect or logout asked of another replica reaches the socket's owner here at once, through
   * PostgreSQL's NOTIFY (delivered when the request's writes are visible), instead of at the next lease tick.
   */
  private listenForHandOver(): void {
    this.keepListening(
      this.accounts.listenHandOver((payload) => void this.onHandOver(payload)),
      'whatsapp hand-over notifications unavailable; the lease tick applies them',
    );
  }

  /**
   * A send stored by another replica reaches this one's socket at once, through NOTIFY, instead of at the next
   * lease tick. The drain it kicks is the same one the tick runs: order and the pacing of answers stay its own.
   */
  private listenForSends(): void {
    this.keepListening(
      this.accounts.listenPending((userId) => this.sessions.get(userId)?.kick()),
      'whatsapp send notifications unavailable; the lease tick delivers stored sends',
    );
  }

  private keepListening(listening: Promise<{ unlisten: () => Promise<void> }>, unavailableMessage: string): void {
    listening
      .then(({ unlisten }) => {
        if (this.closed) void unlisten().catch(() => undefined);
        else this.unlisten.push(unlisten);
      })
      .catch((error: unknown) => this.log.warn({ err: error }, unavailableMessage));
  }

  /**
   * A send was stored: the socket's owner delivers it now. Here when this replica holds the socket; otherwise
   * a notification wakes the owner (the embedded process holds every socket, so it has no one else to wake).
   * A notification that cannot be sent only costs time: the owner's tick delivers what is pending.
   */
  async deliver(userId: string): Promise<void> {
    const session = this.sessions.get(userId);
    if (session) return session.kick();
    if (this.exclusive) return;
    await this.accounts.notifyPending(userId).catch((error: unknown) => this.log.warn({ err: error }, 'whatsapp send notification not sent'));
  }

  private async onHandOver(payload: string): Promise<void> {
    let request: HandOver;
    try {
      request = JSON.parse(payload) as HandOver;
    } catch {
      return;
    }
    // Our own request was applied to our own socket before it was sent.
    if (request.from === this.owner) return;
    if (request.action === 'reconnect') return this.reconnectHere(request.userId);
    const session = this.sessions.get(request.userId);
    if (!session) return;
    try {
      this.sessions.take(request.userId);
      if (request.action === 'logout') await session.logout();
      else session.stop();
      await session.idle();
      await this.sessions.release(request.userId);
    } catch (error) {
      this.log.error({ err: error }, 'whatsapp hand-over failed');
    }
  }

  /**
   * The owner asked to connect through another replica while this one holds the lease: the socket waiting
   * out a backoff tries now; one that gave up (stopped, lease not yet expired) starts again here.
   */
  private async reconnectHere(userId: string): Promise<void> {
    try {
      const session = this.sessions.get(userId);
      if (session && !session.isStopped) return await session.reconnectNow();
      if (session) this.sessions.take(userId);
      await this.sessions.adopt(userId);
    } catch (error) {
      this.log.error({ err: error }, 'whatsapp reconnect hand-over failed');
    }
  }

  /** Tells the replica that holds the account's socket (when not this one) to drop it, or to try again, now. */
  private async handOver(userId: string, action: HandOver['action']): Promise<void> {
    if (this.exclusive) return;
    const request: HandOver = { userId, action, from: this.owner };
    await this.accounts.notifyHandOver(JSON.stringify(request));
    // A reconnect leaves the socket where it is: its state, written by the owner, answers the caller.
    if (action === 'reconnect') return;
    // The new socket of a logout may only start once the owner let go (a dead owner's lease runs out instead).
    const deadline = Date.now() + Math.min(this.lease.ttlMs, this.lease.connectWaitMs);
    while (Date.now() < deadline) {
      const account = await this.accounts.find(userId);
      if (!account || !this.isLive(account) || account.leaseOwner === this.owner) return;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  }

  /** What a provider of the messaging port wraps (adapters/baileys-provider.ts): the parts the sessions use. */
  get parts(): Pick<SessionDeps, 'accounts' | 'messages' | 'outbound'> {
    return this.deps;
  }

  /** From now on, `observer` hears what this replica's sessions store (those started before included). */
  observe(observer: SessionObserver): void {
    this.observers.push(observer);
  }

  local(userId: string): AccountSession | undefined {
    return this.sessions.get(userId);
  }

  async connect(userId: string): Promise<WhatsAppConnectResult> {
    if (this.closed) throw unavailable(RESTARTING);
    const current = await this.accounts.find(userId);
    let session = this.sessions.get(userId);
    if (session?.isStopped) {
      this.sessions.take(userId);
      session = undefined;
    }
    const live = current !== undefined && this.isLive(current);
    if (live && current.state === 'connected') return { connected: true, qrCode: null };
    // A socket is up and showing a QR: that one is still good (a second socket would only replace it).
    if (live && current.state === 'qr' && current.qrEnc && !session?.isRetrying) {
      return { connected: false, qrCode: this.openQr(userId, current.qrEnc) };
    }
    // Asked again (Conectar, Actualizar QR, Reintentar, a reset): the bound on a never-linked account starts over.
    await this.accounts.resetAttempts(userId);
    if (session) {
      await this.accounts.want(userId, true);
      if (session.isRetrying) {
        await this.accounts.setState(userId, { state: 'connecting', error: null });
        await session.reconnectNow();
      }
    } else {
      // The replica asked opens the socket unless another holds it (then that one's QR is waited for).
      const claimed = await this.accounts.wantAndClaim(userId, this.owner, this.lease.ttlMs, this.exclusive);
      await this.accounts.setState(userId, { state: 'connecting', error: null });
      if (claimed) await this.sessions.run(userId);
      else await this.handOver(userId, 'reconnect');
    }
    return this.waitForLink(userId);
  }

  private isLive(account: AccountRow): boolean {
    return account.leaseOwner !== null && account.leaseUntil !== null && account.leaseUntil > new Date();
  }

  /**
   * Until the first QR or the open connection is known (written by whichever replica owns the socket). Without
   * either, the answer says where things stand and what the owner can do; the socket keeps trying meanwhile.
   */
  private async waitForLink(userId: string): Promise<WhatsAppConnectResult> {
    const deadline = Date.now() + this.lease.connectWaitMs;
    while (Date.now() < deadline) {
      // Shutting down: the request must not hold the server's drain for the rest of the wait.
      if (this.closed) throw unavailable(RESTARTING);
      const account = await this.accounts.find(userId);
      if (account?.state === 'connected') return { connected: true, qrCode: null };
      if (account?.state === 'qr' && account.qrEnc) return { connected: false, qrCode: this.openQr(userId, account.qrEnc) };
      if (account && ['error', 'failed', 'logged_out', 'disconnected'].includes(account.state)) return notLinkedYet(account.state);
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
    return notLinkedYet('connecting');
  }

  async disconnect(userId: string): Promise<void> {
    await this.accounts.want(userId, false);
    const session = this.sessions.get(userId);
    if (session) {
      session.stop();
      await session.idle();
      this.sessions.take(userId);
    } else await this.handOver(userId, 'disconnect');
    await this.accounts.setState(userId, { state: 'disconnected', qrEnc: null, error: null });
    await this.sessions.release(userId);
  }

  /**
   * The account is being erased: its socket, wherever it runs, logs out (the phone's "linked devices" loses
   * it) and nothing reconnects. Returns false when the account was linked but no replica held a live socket
   * to log out with (the phone keeps the device until the owner removes it there).
   */
  async unlinkForErasure(userId: string): Promise<boolean> {
    const account = await this.accounts.find(userId);
    if (!account) return true;
    await this.accounts.want(userId, false);
    const session = this.sessions.get(userId);
    if (session) {
      this.sessions.take(userId);
      await session.logout();
      await session.idle();
    } else if (this.isLive(account)) await this.handOver(userId, 'logout');
    await this.sessions.release(userId);
    return Boolean(session) || this.isLive(account) || !account.linked;
  }

  /** The hard reset: unlink, wipe creds, then a new connection that shows a new QR. */
  async logout(userId: string): Promise<WhatsAppConnectResult> {
    await this.accounts.want(userId, false);
    const session = this.sessions.get(userId);
    if (session) {
      await session.logout();
      await session.idle();
      this.sessions.take(userId);
    } else await this.handOver(userId, 'logout');
    await this.authState.wipe(userId);
    await this.accounts.setState(userId, { state: 'logged_out', qrEnc: null, error: null, linked: false, phone: null, name: null });
    await this.sessions.release(userId);
    return this.connect(userId);
  }

  async status(userId: string): Promise<WhatsAppStatus> {
    const account = await this.accounts.find(userId);
    if (!account) {
      return {
        provider: 'baileys',
        connected: false,
        qrCode: null,
        state: 'disconnected',
        phone: null,
        name: null,
        since: new Date().toISOString(),
        lastEventAt: null,
        error: null,
        qrShown: false,
        hasSession: false,
      };
    }
    return {
      provider: 'baileys',
      connected: account.state === 'connected',
      qrCode: account.state === 'qr' && account.qrEnc ? this.openQr(userId, account.qrEnc) : null,
      state: account.state,
      phone: account.phone,
      name: account.name,
      since: account.since.toISOString(),
      lastEventAt: account.lastEventAt?.toISOString() ?? null,
      error: account.error,
      qrShown: account.qrShown,
      hasSession: account.linked,
    };
  }

  async health(userId: string): Promise<WhatsAppHealth> {
    const [account, pending] = await Promise.all([this.accounts.find(userId), this.messages.pendingCount(userId)]);
    const now = Date.now();
    return {
      state: account?.state ?? 'disconnected',
      since: (account?.since ?? new Date()).toISOString(),
      lastEventAgeSeconds: account?.lastEventAt ? Math.max(0, Math.round((now - account.lastEventAt.getTime()) / 1000)) : null,
      reconnectsLastHour: account?.reconnectsLastHour ?? 0,
      decryptFailures: account?.decryptFailures ?? 0,
      pendingMessages: pending,
      error: account?.error ?? null,
      everLinked: account?.everLinked ?? false,
    };
  }

  private openQr(userId: string, qrEnc: string): string | null {
    try {
      return this.box.open(qrEnc, qrContext(userId));
    } catch {
      return null;
    }
  }
}

function unavailable(message: string): AppError {
  return new AppError(503, 'WHATSAPP_UNAVAILABLE', message);
}
