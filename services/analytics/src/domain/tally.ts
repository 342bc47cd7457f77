import type { DomainEvent } from '@asistente/contracts';
import { incrementsFor, whatsappChatOf } from './metrics.js';

export interface Counter {
  userId: string;
  metric: string;
  hour: string;
  value: number;
}

export interface ChatSeen {
  userId: string;
  chatId: string;
  lastSeen: string;
}

/**
 * Sums what a set of events adds to the hourly counters and the latest
 * activity per WhatsApp chat. The consumer tallies a batch, the rebuild the
 * whole history: the same arithmetic, so the same figures.
 */
export class Tally {
  private readonly sums = new Map<string, Counter>();
  private readonly seen = new Map<string, ChatSeen>();

  add(event: DomainEvent): void {
    const hour = new Date(event.occurredAt);
    hour.setUTCMinutes(0, 0, 0);
    const hourIso = hour.toISOString();
    for (const [metric, value] of incrementsFor(event)) {
      const key = `${event.userId}|${metric}|${hourIso}`;
      const counter = this.sums.get(key);
      if (counter) counter.value += value;
      else this.sums.set(key, { userId: event.userId, metric, hour: hourIso, value });
    }
    const chatId = whatsappChatOf(event);
    if (chatId) {
      const key = `${event.userId}|${chatId}`;
      const current = this.seen.get(key);
      const at = new Date(event.occurredAt).toISOString();
      if (!current || current.lastSeen < at) this.seen.set(key, { userId: event.userId, chatId, lastSeen: at });
    }
  }

  counters(): Counter[] {
    return [...this.sums.values()];
  }

  /** The counters summed over all hours, per user and metric. */
  totals(): Omit<Counter, 'hour'>[] {
    const totals = new Map<string, Omit<Counter, 'hour'>>();
    for (const { userId, metric, value } of this.sums.values()) {
      const key = `${userId}|${metric}`;
      const total = totals.get(key);
      if (total) total.value += value;
      else totals.set(key, { userId, metric, value });
    }
    return [...totals.values()];
  }

  chats(): ChatSeen[] {
    return [...this.seen.values()];
  }
}
