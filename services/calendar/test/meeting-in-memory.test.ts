// A meeting provider added as any new one is (its file, one registration) passes the meeting port's conformance suite through the real routes.
import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import calendarService from '../src/app.js';
import { InMemoryMeetings } from './support/in-memory-meetings.js';
import { meetingConformance } from './support/meeting-conformance.js';

await meetingConformance(t, 'in memory', async (t) => {
  const memory = new InMemoryMeetings();
  const platform = await createTestPlatform(t);
  // The registration: the calendar service with one more meeting provider.
  const app = await buildServiceApp(t, (fastify, { platform }) => calendarService(fastify, { platform, meetingProviders: [memory] }), platform);
  return {
    provider: memory.name,
    account: memory.account,
    app,
    prefix: '',
    member: async () => {
      const { userId, authorization } = signToken(app);
      memory.connect(userId);
      return authorization;
    },
    stranger: () => signToken(app).authorization,
    joinUrl: /^https:\/\/reuniones\.example\//,
    asked: () => memory.created.length,
    cutOff: () => {
      memory.reachable = false;
      return () => {
        memory.reachable = true;
      };
    },
  };
});
