import t from 'tap';
import { ConfigError, loadConfig } from '../src/config.js';
import { parseAddressList } from '../src/net/address-list.js';
import { HOST_NOT_ALLOWED_MESSAGE, HostGuard, HostNotAllowedError, type Resolver } from '../src/net/host-guard.js';

/** A resolver that answers from a table, like DNS would for names the test invents. */
const fixed =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const answers = table[host];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

// Every spelling the attack reached loopback with, and the other internal and special ranges. The system
// resolver reads the numeric forms (inet_aton) and localhost without any network: what production does.
const REFUSED = [
  '127.0.0.1',
  '2130706433',
  '127.1',
  '0x7f000001',
  '0177.0.0.1',
  '0',
  'localhost',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '0:0:0:0:0:ffff:127.0.0.1',
  '::1',
  '[::1]',
  '::7f00:1',
  '::127.0.0.1',
  '64:ff9b::7f00:1',
  '::',
  '169.254.169.254',
  '100.64.0.1',
  '10.0.0.5',
  '172.16.3.4',
  '172.31.255.254',
  '192.168.1.20',
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '192.0.2.10',
  'fe80::1',
  'fc00::1',
  'fd12:3456::1',
  'ff02::1',
  '2002:7f00:1::1',
];

t.test('every private or special address is refused, however it is spelt', async (t) => {
  const guard = new HostGuard('');
  for (const host of REFUSED) {
    const error = await guard.check(host).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.ok(error instanceof HostNotAllowedError, `${host} refused`);
    t.match(error, { statusCode: 400, code: 'HOST_NOT_ALLOWED', message: HOST_NOT_ALLOWED_MESSAGE });
  }
});

t.test('names are judged by what they resolve to, every answer', async (t) => {
  const guard = new HostGuard(
    '',
    fixed({
      'imap.example.com': ['93.184.216.34'],
      'mail6.example.com': ['2001:4860:4860::8888'],
      'metadata.example.com': ['169.254.169.254'],
      'mixed.example.com': ['93.184.216.34', '10.0.0.1'],
      'mapped.example.com': ['::ffff:10.0.0.1'],
      'nat64.example.com': ['64:ff9b::5db8:d822'],
    }),
  );
  t.same(await guard.check('imap.example.com'), {
    host: 'imap.example.com',
    address: '93.184.216.34',
    servername: 'imap.example.com',
    plaintextAllowed: false,
  });
  t.match(await guard.check('mail6.example.com'), { address: '2001:4860:4860::8888', servername: 'mail6.example.com' });
  t.match(await guard.check('nat64.example.com'), { address: '64:ff9b::5db8:d822' }, 'NAT64 of a public IPv4 address');
  for (const host of ['metadata.example.com', 'mixed.example.com', 'mapped.example.com']) {
    await t.rejects(guard.check(host), HostNotAllowedError, `${host} refused`);
  }
  await t.rejects(guard.check('nadie.example.com'), { code: 'ENOTFOUND' }, 'a name that does not resolve is the resolver error');
});

t.test('a public address typed as such: no TLS server name (the certificate is checked for the address)', async (t) => {
  const guard = new HostGuard('');
  t.same(await guard.check('8.8.8.8'), { host: '8.8.8.8', address: '8.8.8.8', servername: undefined, plaintextAllowed: false });
  t.match(await guard.check('[2001:4860:4860::8888]'), { host: '2001:4860:4860::8888', servername: undefined });
});

t.test('ALLOWED_PRIVATE_ADDRESSES lets the operator reach their own network, and only that', async (t) => {
  const guard = new HostGuard(
    '127.0.0.1, 192.168.1.0/24,fd00::/8',
    fixed({ 'mail.lan': ['192.168.1.10'], 'other.lan': ['192.168.2.10'], 'localhost': ['::1', '127.0.0.1'] }),
  );
  t.match(await guard.check('mail.lan'), { address: '192.168.1.10', servername: 'mail.lan', plaintextAllowed: true });
  await t.rejects(guard.check('other.lan'), HostNotAllowedError, 'outside the listed range');
  await t.rejects(guard.check('localhost'), HostNotAllowedError, '::1 is not listed, so a name answering it too is refused');

  const system = new HostGuard('127.0.0.1,192.168.1.0/24,fd00::/8');
  for (const host of ['127.0.0.1', '2130706433', '0x7f000001', '127.1', '::ffff:127.0.0.1']) {
    t.match(await system.check(host), { address: host.includes(':') ? host : '127.0.0.1', plaintextAllowed: true }, `${host} allowed`);
  }
  t.match(await system.check('::ffff:192.168.1.5'), { plaintextAllowed: true }, 'IPv4-mapped form of a listed range');
  t.match(await system.check('fd12::1'), { plaintextAllowed: true });
  for (const host of ['127.0.0.2', '0', '::1', '169.254.169.254', '10.0.0.1']) {
    await t.rejects(system.check(host), HostNotAllowedError, `${host} still refused`);
  }
  t.match(await system.check('8.8.8.8'), { plaintextAllowed: false }, 'a public address keeps requiring TLS');
});

t.test('the name is resolved once: a second, different DNS answer changes nothing', async (t) => {
  const answers = [['93.184.216.34'], ['127.0.0.1']];
  let calls = 0;
  const rebinding: Resolver = async () => (answers[calls++] ?? ['127.0.0.1']).map((address) => ({ address, family: 4 }));
  const checked = await new HostGuard('', rebinding).check('rebind.example.com');
  t.equal(calls, 1, 'one lookup');
  t.equal(checked.address, '93.184.216.34', 'the address to connect to is the one checked');
});

t.test('ALLOWED_PRIVATE_ADDRESSES is validated at boot', async (t) => {
  t.same(parseAddressList(''), []);
  t.equal(parseAddressList('127.0.0.1,10.0.0.0/8').length, 2);
  t.equal(loadConfig({ ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1,192.168.1.0/24' }).ALLOWED_PRIVATE_ADDRESSES, '127.0.0.1,192.168.1.0/24');
  t.equal(loadConfig({}).ALLOWED_PRIVATE_ADDRESSES, '', 'unset: no private address allowed');
  for (const value of ['10.0.0.0/33', '300.1.1.1', 'fd00::/200', 'localhost']) {
    const error = t.throws(() => loadConfig({ ALLOWED_PRIVATE_ADDRESSES: value })) as ConfigError;
    t.equal(error.variable, 'ALLOWED_PRIVATE_ADDRESSES', `${value} refused at boot`);
  }
});
