import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import analyticsService from '../src/app.js';
import { event } from './fixtures.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, analyticsService, platform);
const base = await app.listen({ port: 0, host: '127.0.0.1' });

/** Reads an SSE body; `until` waits for a frame matching a pattern without closing the stream on timeout. */
function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending: ReturnType<typeof reader.read> | undefined;
  let text = '';
  return {
    async until(pattern: RegExp, timeoutMs: number): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(text)) {
        pending ??= reader.read();
        const left = deadline - Date.now();
        if (left <= 0) return '';
        const result = await Promise.race([pending, new Promise<null>((resolve) => setTimeout(() => resolve(null), left))]);
        if (result === null) return '';
        pending = undefined;
        if (result.done) return '';
        text += decoder.decode(result.value, { stream: true });
      }
      const match = text;
      text = '';
      return match;
    },
  };
}

t.test('the stream tells an open screen that its figures changed, and only its own', async (t) => {
  const me = signToken(app);
  const other = signToken(app);
  const controller = new AbortController();
  t.teardown(() => controller.abort());
  const res = await fetch(`${base}/analytics/stream`, { headers: { authorization: me.authorization }, signal: controller.signal });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /text\/event-stream/);
  const frames = sseReader(res.body!);
  t.match(await frames.until(/event: ready/, 5000), /event: ready/);

  await platform.bus.publish([event('teams.message.sent', other.userId, new Date(), { messageId: 'x', channelId: 'c' })] as never[]);
  t.equal(await frames.until(/event: rollups/, 800), '', "another user's change is not announced");

  await platform.bus.publish([event('teams.message.sent', me.userId, new Date(), { messageId: 'y', channelId: 'c' })] as never[]);
  t.match(await frames.until(/event: rollups/, 5000), /event: rollups\ndata: \{"changedAt":"[^"]+"\}/);
});

t.test('the stream needs a token', async (t) => {
  const res = await fetch(`${base}/analytics/stream`);
  t.equal(res.status, 401);
  t.equal(((await res.json()) as { code: string }).code, 'UNAUTHORIZED');
});
