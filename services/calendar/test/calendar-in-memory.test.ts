// A calendar provider added as any new one is (its file, one registration) passes the calendar port's conformance suite: its events in /events and in free slots.
import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import calendarService from '../src/app.js';
import { calendarConformance } from './support/calendar-conformance.js';
import { InMemoryCalendar } from './support/in-memory-calendar.js';

await calendarConformance(t, 'in memory', async (t) => {
  const memory = new InMemoryCalendar();
  const platform = await createTestPlatform(t);
  // The registration: the calendar service with one more calendar provider.
  const app = await buildServiceApp(t, (fastify, { platform }) => calendarService(fastify, { platform, calendarProviders: [memory] }), platform);
  return {
    provider: memory.name,
    app,
    prefix: '',
    member: async () => {
      const { userId, authorization } = signToken(app);
      return { authorization, calendarId: memory.connect(userId) };
    },
    stranger: () => signToken(app).authorization,
  };
});
