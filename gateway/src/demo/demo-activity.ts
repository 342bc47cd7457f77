import { createEvent, type EventEnvelope } from '@asistente/kit';
import { MAIL_PROVIDERS, type EventData, type EventType } from '@asistente/contracts';
import { businessMoment, DEMO_DAYS, isWeekend } from './demo-calendar.js';
import type { Random } from './random.js';

const CHATS = 60;
const CHANNELS = ['general', 'ventas', 'soporte', 'proyectos'] as const;

/**
 * 90 days of a small business's mail, WhatsApp, calendar, Teams and AI
 * activity: busier on weekdays, growing over the quarter, every event valid
 * against the catalogue. Events dated in the future are left out.
 */
export function demoActivity(random: Random, userId: string, now: Date): EventEnvelope[] {
  const events: EventEnvelope[] = [];
  let n = 0;
  const add = <T extends EventType>(type: T, daysAgo: number, data: EventData<T>) => {
    const at = businessMoment(random, now, daysAgo);
    if (at <= now) events.push(createEvent(type, userId, data, at));
  };
  for (let daysAgo = DEMO_DAYS - 1; daysAgo >= 0; daysAgo--) {
    const growth = 0.6 + 0.4 * ((DEMO_DAYS - daysAgo) / DEMO_DAYS);
    const weekend = isWeekend(new Date(now.getTime() - daysAgo * 86_400_000));
    const volume = (min: number, max: number) => Math.round(random.int(min, max) * growth * (weekend ? 0.25 : 1));

    for (let i = volume(8, 20); i > 0; i--) add('email.message.received', daysAgo, { messageId: `demo-${++n}`, provider: random.pick(MAIL_PROVIDERS) });
    for (let i = volume(4, 12); i > 0; i--) {
      const messageId = `demo-${++n}`;
      add('email.message.sent', daysAgo, { messageId, provider: random.pick(MAIL_PROVIDERS) });
      if (random.chance(0.55)) add('email.message.opened', daysAgo, { messageId });
      if (random.chance(0.15)) add('email.message.clicked', daysAgo, { messageId });
    }
    for (let i = volume(10, 30); i > 0; i--) {
      const chatId = `34600${String(random.int(1, CHATS)).padStart(6, '0')}@s.whatsapp.net`;
      add('whatsapp.message.received', daysAgo, { messageId: `demo-${++n}`, chatId });
      if (random.chance(0.9)) {
        const messageId = `demo-${++n}`;
        add('whatsapp.message.sent', daysAgo, { messageId, chatId });
        if (random.chance(0.3)) {
          const kind = random.chance(0.6) ? 'ai' : 'keyword';
          add('whatsapp.autoreply.sent', daysAgo, { messageId, chatId, kind });
          if (kind === 'ai') {
            const prompt = random.int(300, 1200);
            const completion = random.int(40, 250);
            add('ai.run.completed', daysAgo, { model: 'gpt-4o-mini', promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion });
          }
        }
      }
    }
    // 'msteams' entries come only with a Teams meeting (analytics counts them through it), so plain events are Google's or local.
    for (let i = volume(0, 3); i > 0; i--) add('calendar.event.created', daysAgo, { eventId: `demo-${++n}`, source: random.pick(['google', 'local'] as const) });
    if (random.chance(0.5 * growth)) add('meet.meeting.created', daysAgo, { meetingId: `demo-${++n}` });
    if (random.chance(0.4 * growth)) add('teams.meeting.created', daysAgo, { meetingId: `demo-${++n}` });
    for (let i = volume(2, 8); i > 0; i--) add('teams.message.sent', daysAgo, { messageId: `demo-${++n}`, channelId: random.pick(CHANNELS) });
    for (let i = volume(3, 10); i > 0; i--) add('teams.message.received', daysAgo, { messageId: `demo-${++n}`, channelId: random.pick(CHANNELS) });
  }
  return events;
}
