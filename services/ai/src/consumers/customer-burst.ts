import { isFromBusiness, listOf } from '../domain/tools/tool.js';

interface Line {
  id: string | undefined;
  fromMe: boolean;
  text: string;
  time: number;
}

function toLine(raw: unknown): Line {
  const m = (raw ?? {}) as Record<string, unknown>;
  const fromMe = isFromBusiness(m);
  const text = String(m.text ?? m.body ?? m.message ?? m.content ?? '').trim();
  const key = m.key as { id?: unknown } | undefined;
  const id = [m.id, m.messageId, key?.id].find((value): value is string => typeof value === 'string');
  const stamp = m.timestamp ?? m.sentAt ?? m.createdAt;
  // Seconds (Baileys' messageTimestamp), milliseconds or ISO text; NaN without one.
  const time = typeof stamp === 'number' ? (stamp < 1e12 ? stamp * 1000 : stamp) : typeof stamp === 'string' ? Date.parse(stamp) : Number.NaN;
  return { id, fromMe, text, time };
}

/**
 * The customer's burst in a chat's recent messages. By the ids the events announced, in the order they
 * arrived (timestamps in seconds cannot order three lines written within one second); failing that, the
 * text messages after the last one the business sent, oldest first.
 */
export function customerBurst(answer: unknown, ids: readonly string[]): string[] {
  const lines = listOf(answer, 'messages').map(toLine);
  const byId = new Map(lines.filter((line) => line.id !== undefined && !line.fromMe).map((line) => [line.id!, line.text]));
  const announced = ids.map((id) => byId.get(id)).filter((text): text is string => text !== undefined && text !== '');
  if (announced.length > 0) return announced;
  // The WhatsApp service lists newest first: reversed, then sorted by time (stable, so ties keep that order).
  lines.reverse();
  const hasTimes = lines.every((line) => !Number.isNaN(line.time));
  if (hasTimes) lines.sort((a, b) => a.time - b.time);
  const burst: string[] = [];
  for (let i = lines.length - 1; i >= 0 && !lines[i]!.fromMe; i--) if (lines[i]!.text !== '') burst.unshift(lines[i]!.text);
  return burst;
}
