// The one spelling of a request's path: each way of writing a path maps to the plain one, or is refused.
import t from 'tap';
import { normalisePath, normaliseTarget } from '../src/http/request-target.js';

t.test('spellings of one path become the plain path', async (t) => {
  const cases: [string, string][] = [
    ['/api/whatsapp/connect', '/api/whatsapp/connect'],
    ['/api/whatsapp/%63onnect', '/api/whatsapp/connect'],
    ['/api/whatsapp/%63%6F%6E%6E%65%63%74', '/api/whatsapp/connect'],
    ['/api/whatsapp/%63%6f%6e%6e%65%63%74', '/api/whatsapp/connect'],
    ['/%61pi/%77hatsapp/connect', '/api/whatsapp/connect'],
    ['/api/whatsapp/./connect', '/api/whatsapp/connect'],
    ['/api/whatsapp/x/../connect', '/api/whatsapp/connect'],
    ['/api/whatsapp/%2e/connect', '/api/whatsapp/connect'],
    ['/api/whatsapp/x/%2E%2E/connect', '/api/whatsapp/connect'],
    ['/api/contacts/.', '/api/contacts/'],
    ['/api/contacts/x/..', '/api/contacts/'],
    ['/api/contacts/', '/api/contacts/'],
    ['/', '/'],
    ['/assets/index-1a2b.js', '/assets/index-1a2b.js'],
  ];
  for (const [given, plain] of cases) t.equal(normalisePath(given), plain, given);
});

t.test('what a segment holds stays in it, written one way', async (t) => {
  const cases: [string, string][] = [
    // An encoded slash is data of its segment (a calendar id, a folder), never a separator.
    ['/api/google/events/calendar/a%2Fb', '/api/google/events/calendar/a%2Fb'],
    ['/api/google/events/calendar/a%2fb', '/api/google/events/calendar/a%2Fb'],
    // Escaped twice: decoded once, the `%` stays data.
    ['/api/contacts/a%252Fb', '/api/contacts/a%252Fb'],
    ['/api/google/events/calendar/es.spain%23holiday%40group.v.calendar.google.com', '/api/google/events/calendar/es.spain%23holiday@group.v.calendar.google.com'],
    ['/api/ai/chats/34600000000%40s.whatsapp.net', '/api/ai/chats/34600000000@s.whatsapp.net'],
    ['/api/teams/19:abc@thread.tacv2/channels', '/api/teams/19:abc@thread.tacv2/channels'],
    ['/api/contacts/caf%C3%A9', '/api/contacts/caf%C3%A9'],
    ['/api/contacts/café', '/api/contacts/caf%C3%A9'],
    ['/api/contacts/a b', '/api/contacts/a%20b'],
    ['/api/whatsapp/connect;x', '/api/whatsapp/connect;x'],
    ['/api/whatsapp/connect%3Bx', '/api/whatsapp/connect;x'],
    // A control character is data the input guard refuses (INVALID_CHARACTERS), escaped one way meanwhile.
    ['/api/contacts/%00', '/api/contacts/%00'],
    ['/api/contacts/a%0a', '/api/contacts/a%0A'],
  ];
  for (const [given, plain] of cases) t.equal(normalisePath(given), plain, given);
  for (const [given] of cases) t.equal(normalisePath(normalisePath(given)!), normalisePath(given), `${given}: written once, it stays so`);
});

t.test('a path with no single meaning is refused', async (t) => {
  for (const path of [
    '/api/whatsapp//connect',
    '//api/whatsapp/connect',
    '/api/contacts/a%5c..%5cb',
    '/api/contacts/a\\b',
    '/api/contacts/a%2F..%2F..%2Fauth',
    '/api/contacts/%2e%2e%2fauth',
    '/api/contacts/%zz',
    '/api/contacts/%E0%80%AF',
    '/api/contacts/%C0%AE%C0%AE/x',
    '/api/contacts/%C0%AF',
    '/api/../../etc/passwd',
    '/..',
    '/API/whatsapp/connect',
    '/Api/contacts',
    '/%41PI/contacts',
    'api/contacts',
    '*',
  ]) {
    t.equal(normalisePath(path), undefined, path);
  }
  t.equal(normalisePath('/apis/x'), '/apis/x', 'another first segment is no prefix');
});

t.test('the fragment is dropped, the query kept as sent', async (t) => {
  t.equal(normaliseTarget('/api/whatsapp/connect#x'), '/api/whatsapp/connect');
  t.equal(normaliseTarget('/api/whatsapp/connect#x?y=1'), '/api/whatsapp/connect', 'a ? after the # is fragment');
  t.equal(normaliseTarget('/api/contacts?search=a%2e#frag'), '/api/contacts?search=a%2e');
  t.equal(normaliseTarget('/api/contacts/%2e/x?search=../a'), '/api/contacts/x?search=../a');
  t.equal(normaliseTarget('/api/contacts?'), '/api/contacts?');
  t.equal(normaliseTarget('/api//contacts?x=1'), undefined);
});
