import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError, notFound, type Logger } from '@asistente/kit';
import type { CalendarSyncService } from './calendar-sync.service.js';
import type { GoogleConnectionService } from './google-connection.service.js';
import type { WatchChannel, WatchChannelsRepository } from './watch-channels.repository.js';

/** What a channel asks Google for (Google may answer a shorter life; the answer is what is stored). */
export const CHANNEL_TTL_S = 7 * 86_400;
/** A channel expiring sooner than this is replaced by a new one (the sweep runs well within it). */
export const RENEW_AHEAD_MS = 24 * 3_600_000;
/** How often the channels about to expire are renewed. */
export const SWEEP_MS = 30 * 60_000;

const hash = (token: string) => createHash('sha256').update(token).digest();

/** The headers Google sends with a push notification (only these are read). */
export interface Notification {
  channelId: string | undefined;
  token: string | undefined;
  /** 'sync' when the channel opens; 'exists' or 'not_exists' when the calendar's events changed. */
  state: string | undefined;
}

/**
 * Google push notifications for the mirror (events.watch): each mirrored calendar gets a channel posting to
 * PUBLIC_URL/api/google/notifications with a random token only its hash of is stored; a notification with a
 * known channel and its token refreshes that calendar's mirror at once. Channels are renewed before they
 * expire and stopped on disconnect. Without an https PUBLIC_URL (Google refuses anything else) nothing is
 * opened and the mirror keeps refreshing when views find it older than a minute.
 */
export class PushChannelsService {
  private readonly opening = new Map<string, Promise<void>>();
  /** Users being disconnected (with how many disconnects run at once): no channel opens for them meanwhile. */
  private readonly disconnecting = new Map<string, number>();

  constructor(
    private readonly connection: GoogleConnectionService,
    private readonly sync: CalendarSyncService,
    private readonly channels: WatchChannelsRepository,
    /** The webhook's public address, or undefined when PUBLIC_URL is not https. */
    private readonly address: string | undefined,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  static address(publicUrl: string): string | undefined {
    return publicUrl.startsWith('https://') ? `${publicUrl.replace(/\/$/, '')}/api/google/notifications` : undefined;
  }

  get enabled(): boolean {
    return this.address !== undefined;
  }

  /** Opens a channel on the calendar unless it has one that is not about to expire. */
  async ensure(userId: string, calendarId: string): Promise<void> {
    if (!this.address) return;
    const current = await this.channels.ofCalendar(userId, calendarId);
    if (current && current.expiresAt.getTime() - this.now() > RENEW_AHEAD_MS) return;
    if (this.disconnecting.has(userId)) return;
    const key = `${userId}:${calendarId}`;
    const running = this.opening.get(key);
    if (running) return running;
    const opening = this.open(userId, calendarId, this.address, current).finally(() => this.opening.delete(key));
    this.opening.set(key, opening);
    return opening;
  }

  private async open(userId: string, calendarId: string, address: string, previous: WatchChannel | undefined): Promise<void> {
    const feed = await this.connection.feed(userId);
    const id = randomUUID();
    const token = randomBytes(32).toString('base64url');
    const { resourceId, expiresAt } = await this.connection.guard(userId, () =>
      feed.watch(calendarId, { id, address, token, ttlSeconds: CHANNEL_TTL_S }),
    );
    const saved = await this.channels.save({ id, userId, calendarId, resourceId, tokenHash: hash(token).toString('hex'), expiresAt });
    // Disconnected (or the calendar removed) while Google opened it: nobody would ever stop it.
    const orphan = saved ? previous : { id, resourceId };
    if (orphan) await feed.stopWatching(orphan.id, orphan.resourceId).catch((error: unknown) => this.warn(error, 'could not stop a google channel'));
  }

  /** A notification from Google: 404 for a channel we do not have, 403 for a wrong token. */
  async notified({ channelId, token, state }: Notification): Promise<void> {
    const channel = channelId ? await this.channels.find(channelId) : undefined;
    if (!channel || channel.expiresAt.getTime() <= this.now()) throw notFound('Canal desconocido');
    const expected = Buffer.from(channel.tokenHash, 'hex');
    if (!token || !timingSafeEqual(hash(token), expected)) throw new AppError(403, 'INVALID_CHANNEL_TOKEN', 'Token de canal inválido');
    if (state === 'sync') return;
    // Google wants a quick 2xx: the refresh runs after the answer.
    void this.refresh(channel);
  }

  private async refresh(channel: WatchChannel): Promise<void> {
    try {
      const calendar = await this.sync.calendar(channel.userId, channel.calendarId);
      await this.sync.refreshEvents(channel.userId, calendar, true);
    } catch (error) {
      this.warn(error, 'refresh after a google notification failed');
    }
  }

  /** Renews the channels that expire within a day. */
  async sweep(): Promise<void> {
    for (const channel of await this.channels.expiringBefore(new Date(this.now() + RENEW_AHEAD_MS))) {
      await this.ensure(channel.userId, channel.calendarId).catch((error: unknown) => this.warn(error, 'could not renew a google channel'));
    }
  }

  /**
   * Disconnects (`forget` revokes the grant and drops the rows) leaving no channel open at Google: while it
   * runs no channel opens for the user, and the ones already opening are waited for, so a sync finishing
   * during the disconnect cannot leave one behind that nobody would stop.
   */
  async disconnect(userId: string, forget: () => Promise<void>): Promise<void> {
    this.disconnecting.set(userId, (this.disconnecting.get(userId) ?? 0) + 1);
    try {
      const prefix = `${userId}:`;
      await Promise.allSettled([...this.opening].filter(([key]) => key.startsWith(prefix)).map(([, opening]) => opening));
      await this.stopAll(userId);
      await forget();
    } finally {
      const left = (this.disconnecting.get(userId) ?? 1) - 1;
      if (left > 0) this.disconnecting.set(userId, left);
      else this.disconnecting.delete(userId);
    }
  }

  /** Stops the user's channels at Google (best effort: the grant still works here) and forgets them. */
  private async stopAll(userId: string): Promise<void> {
    const open = await this.channels.ofUser(userId);
    if (open.length === 0) return;
    const feed = await this.connection.feed(userId).catch(() => undefined);
    for (const channel of open) {
      if (feed) await feed.stopWatching(channel.id, channel.resourceId).catch((error: unknown) => this.warn(error, 'could not stop a google channel'));
      await this.channels.delete(channel.id);
    }
  }

  private warn(error: unknown, message: string): void {
    this.log.warn({ err: error instanceof Error ? error.message : error }, message);
  }
}
