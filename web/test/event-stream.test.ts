import t from 'tap';
import { EventStreamParser } from '../src/lib/event-stream.js';

t.test('events, comments and retry as the analytics stream sends them', async (t) => {
  const parser = new EventStreamParser();
  const events = parser.push('retry: 3000\nevent: ready\ndata: {}\n\n: ping\n\nevent: rollups\ndata: {"changedAt":"2026-11-21T10:00:00.000Z"}\n\n');
  t.same(events, [
    { event: 'ready', data: '{}' },
    { event: 'rollups', data: '{"changedAt":"2026-11-21T10:00:00.000Z"}' },
  ]);
  t.equal(parser.retryMs, 3000);
});

t.test('an event split across chunks, CRLF split between them included', async (t) => {
  const parser = new EventStreamParser();
  t.same(parser.push('event: roll'), []);
  t.same(parser.push('ups\r'), []);
  t.same(parser.push('\ndata: a\r\n'), []);
  t.same(parser.push('data: b\r\n\r'), [{ event: 'rollups', data: 'a\nb' }]);
  t.same(parser.push('\ndata: c\n\n'), [{ event: 'message', data: 'c' }], 'the LF after a split CRLF is not an empty line');
});

t.test('events without data are not dispatched and a bad retry is ignored', async (t) => {
  const parser = new EventStreamParser();
  t.same(parser.push('event: ready\n\nretry: pronto\ndata\n\n'), [{ event: 'message', data: '' }]);
  t.equal(parser.retryMs, null);
});

t.test('the last id is kept across events, for Last-Event-ID on a reconnect', async (t) => {
  const parser = new EventStreamParser();
  t.same(parser.push('id: 41\nevent: rollups\ndata: a\n\nevent: rollups\ndata: b\n\n'), [
    { event: 'rollups', data: 'a', id: '41' },
    { event: 'rollups', data: 'b', id: '41' },
  ]);
  t.equal(parser.lastEventId, '41');
  parser.push('id: 4\u00002\n\n');
  t.equal(parser.lastEventId, '41', 'an id with NUL is ignored, as EventSource does');
});
