// Proves a secret parameter is redacted from a logged URL by its name wherever it sits (brackets, `;`, fragment, repeats), through the real request logger.
import { Writable } from 'node:stream';
import t from 'tap';
import { createHttpApp, createLogger, redactUrl } from '../src/index.js';

const R = '[redactado]';

/** [received, logged]: every row keeps the route and the harmless parameters, and no secret value. */
const CASES: [string, string][] = [
  // The query, as before.
  ['/cb?code=abc&scope=email', `/cb?code=${R}&scope=email`],
  ['/cb?scope=email&code=abc', `/cb?scope=email&code=${R}`],
  ['/cb?Code=abc', `/cb?Code=${R}`],
  ['/cb?%63ode=abc', `/cb?%63ode=${R}`],
  ['/cb?%43%4F%44%45=abc', `/cb?%43%4F%44%45=${R}`],
  ['/cb?code=a=b&x=1', `/cb?code=${R}&x=1`],
  ['/cb?code=', `/cb?code=${R}`],
  // Repeated parameters: every occurrence.
  ['/cb?code=a&code=b&code=c', `/cb?code=${R}&code=${R}&code=${R}`],
  ['/cb?state=s1&x=1&state=s2', `/cb?state=${R}&x=1&state=${R}`],
  // Brackets and dotted names: any key of the name.
  ['/cb?code[]=abc', `/cb?code[]=${R}`],
  ['/cb?code%5B%5D=abc&code%5B%5D=def', `/cb?code%5B%5D=${R}&code%5B%5D=${R}`],
  ['/cb?code[0]=abc&page=2', `/cb?code[0]=${R}&page=2`],
  ['/cb?oauth[code]=abc', `/cb?oauth[code]=${R}`],
  ['/cb?user[password]=p&user[name]=ana', `/cb?user[password]=${R}&user[name]=ana`],
  ['/webhook?hub.mode=subscribe&hub.verify_token=v&hub.challenge=1', `/webhook?hub.mode=subscribe&hub.verify_token=${R}&hub.challenge=1`],
  // Whitespace or `+` around the name does not hide it.
  ['/cb?+code=abc', `/cb?+code=${R}`],
  ['/cb?code%20=abc', `/cb?code%20=${R}`],
  ['/cb?code%00=abc', `/cb?code%00=${R}`],
  // `;` as a separator, in the query and in a path segment (matrix parameters).
  ['/cb?x=1;code=abc', `/cb?x=1;code=${R}`],
  ['/cb;code=abc', `/cb;code=${R}`],
  ['/cb;code=abc/next?page=2', `/cb;code=${R}/next?page=2`],
  ['/a;v=1;token=t;w=2/b', `/a;v=1;token=${R};w=2/b`],
  // A stray second `?` starts a parameter too.
  ['/cb?next=/home?code=abc', `/cb?next=/home?code=${R}`],
  // Fragments: bare, after a query, after a client-side route.
  ['/cb#code=abc', `/cb#code=${R}`],
  ['/cb#access_token=t&state=s&expires_in=3600', `/cb#access_token=${R}&state=${R}&expires_in=3600`],
  ['/cb?page=2#code=abc', `/cb?page=2#code=${R}`],
  ['/app#/callback?code=abc&x=1', `/app#/callback?code=${R}&x=1`],
  // Harmless: values that merely say a secret's name, names that merely contain it, names without a value.
  ['/api/contacts?search=code', '/api/contacts?search=code'],
  ['/api/contacts?zipcode=28001&statement=1', '/api/contacts?zipcode=28001&statement=1'],
  ['/cb?code&page=2', '/cb?code&page=2'],
  ['/cb;version=2/x', '/cb;version=2/x'],
  ['/plain/path', '/plain/path'],
  // A broken escape elsewhere does not stop the redaction; a name a broken escape changes is another name.
  ['/cb?%63ode=abc&x=%ZZ&%63ode%E0=def', `/cb?%63ode=${R}&x=%ZZ&%63ode%E0=def`],
  // The tracking MAC in the path.
  ['/api/emails/track/open/5e1d/AbC-mac_1', `/api/emails/track/open/5e1d/${R}`],
  ['/emails/track/click/5e1d/AbC?u=https%3A%2F%2Fejemplo.es', `/emails/track/click/5e1d/${R}?u=https%3A%2F%2Fejemplo.es`],
];

t.test('each spelling of a secret parameter is redacted, and nothing else', async (t) => {
  for (const [received, logged] of CASES) t.equal(redactUrl(received), logged, received);
});

t.test('the request logger writes the redacted URL, never the value', async (t) => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  const app = createHttpApp({ log: createLogger('info', 'test', {}, sink), bodyLimit: 1024 });
  app.get('/cb', async () => ({ ok: true }));
  await app.ready();
  t.teardown(() => app.close());
  const secrets = ['SECRETO-A', 'SECRETO-B', 'SECRETO-C', 'SECRETO-D'];
  const url = `/cb?code[]=${secrets[0]}&code[]=${secrets[1]}&x=1;state=${secrets[2]}#access_token=${secrets[3]}`;
  t.equal((await app.inject({ url })).statusCode, 200);
  const logged = lines.join('');
  t.match(logged, /"url":"\/cb\?code\[\]=\[redactado\]&code\[\]=\[redactado\]&x=1;state=\[redactado\]/, 'the route and the harmless parameter stay');
  for (const secret of secrets) t.notOk(logged.includes(secret), `${secret} is not logged`);
});
