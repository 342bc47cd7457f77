import t from 'tap';
import { meetingStatus } from '../src/domain/calendar-event.js';
import { htmlToText } from '../src/domain/html-text.js';
import { RecentlySeen } from '../src/domain/recently-seen.js';

t.test('Graph HTML becomes plain text with nothing of markup left', async (t) => {
  const cases: [string, string][] = [
    ['<p>Hola</p><p>Adiós</p>', 'Hola\nAdiós'],
    ['uno<br>dos<br/>tres<BR />cuatro', 'uno\ndos\ntres\ncuatro'],
    ['<div><span style="color:red">rojo</span>   y   <b>negrita</b></div>', 'rojo y negrita'],
    ['&lt;script&gt;alert(1)&lt;/script&gt;', '<script>alert(1)</script>'],
    ['<script>alert(1)</script><style>p{}</style>visible', 'visible'],
    ['&amp;lt; literal', '&lt; literal'],
    ['&#72;&#x6F;la&#0;&#x1F600;', 'Hola😀'],
    ['<attachment id="abc"></attachment>con adjunto', 'con adjunto'],
    ['<p></p><p></p><p></p><p>x</p>', 'x'],
    ['<img src=x onerror=alert(1)>texto', 'texto'],
  ];
  for (const [html, text] of cases) t.equal(htmlToText(html, 'html'), text, html);
  t.equal(htmlToText('  <b>tal cual</b>  ', 'text'), '<b>tal cual</b>', 'text bodies are kept as written');
  t.equal(htmlToText(`a${String.fromCharCode(0)}b`, 'text'), 'ab', 'no NUL reaches Postgres');
});

t.test('meeting status from its times', async (t) => {
  const now = Date.parse('2030-01-01T12:00:00Z');
  t.equal(meetingStatus('2030-01-01T13:00:00Z', '2030-01-01T14:00:00Z', now), 'scheduled');
  t.equal(meetingStatus('2030-01-01T11:30:00Z', '2030-01-01T12:30:00Z', now), 'in-progress');
  t.equal(meetingStatus('2030-01-01T10:00:00Z', '2030-01-01T11:00:00Z', now), 'ended');
  t.equal(meetingStatus('2030-01-01T12:00:00Z', '2030-01-01T12:00:00Z', now), 'ended', 'a meeting of no length is over');
});

t.test('recently seen ids are bounded per user and in users', async (t) => {
  const seen = new RecentlySeen(3, 2);
  seen.add('ana', ['1', '2', '3', '4']);
  t.same(seen.unknown('ana', ['1', '2', '3', '4', '5']), ['1', '5'], 'the oldest id is forgotten first');
  seen.add('luis', ['a']);
  seen.add('marta', ['b']);
  t.same(seen.unknown('ana', ['2']), ['2'], 'the least recent user is forgotten');
  t.same(seen.unknown('marta', ['b']), []);
});
