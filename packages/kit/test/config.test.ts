import t from 'tap';
import { Type } from '@sinclair/typebox';
import { ConfigError, loadConfig } from '../src/config.js';
import { defineSettings, readSettings } from '../src/settings.js';

t.test('defaults for an empty environment', async (t) => {
  const config = loadConfig({});
  t.match(config, { PORT: 3000, DATA_DIR: './data', NATS_STREAM: 'EVENTS', LOG_LEVEL: 'info', MIGRATE_ON_START: true });
  t.equal(config.DATABASE_URL, undefined);
  t.equal(config.NATS_URL, undefined);
});

t.test('values are converted to their types; empty strings count as unset', async (t) => {
  const config = loadConfig({ PORT: '8080', MIGRATE_ON_START: 'false', DATABASE_URL: '', DB_POOL_MAX: '20' });
  t.equal(config.PORT, 8080);
  t.equal(config.MIGRATE_ON_START, false);
  t.equal(config.DB_POOL_MAX, 20);
  t.equal(config.DATABASE_URL, undefined);
});

t.test('a bad value names the variable', async (t) => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [{ PORT: 'tres mil' }, 'PORT', /PORT must be an integer between 0 and 65535/],
    [{ PORT: '70000' }, 'PORT', /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL', /DATABASE_URL must match/],
    [{ NATS_URL: 'http://x' }, 'NATS_URL', /NATS_URL/],
    [{ JWT_SECRET: 'corto' }, 'JWT_SECRET', /JWT_SECRET must be at least 32 characters/],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL', /LOG_LEVEL must be one of fatal, error/],
    [{ MIGRATE_ON_START: 'quizá' }, 'MIGRATE_ON_START', /true or false/],
  ];
  for (const [env, variable, message] of cases) {
    const error = t.throws(() => loadConfig(env)) as ConfigError;
    t.equal(error.variable, variable);
    t.match(error.message, message);
  }
});

t.test('secrets never appear in the error message', async (t) => {
  const error = t.throws(() => loadConfig({ JWT_SECRET: 'abc', DATABASE_URL: 'postgres://u:pw@h/db' })) as Error;
  t.notMatch(error.message, /abc/);
  const url = t.throws(() => loadConfig({ DATABASE_URL: 'mysql://u:pw@h/db' })) as Error;
  t.notMatch(url.message, /pw@/);
});

t.test("a service's settings are read by the same rules: defaults, conversion, the variable named, no credential shown", async (t) => {
  const settings = defineSettings({
    LIMIT_MAX: Type.Integer({ minimum: 1, default: 10 }),
    PEER_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  });
  t.same(readSettings(settings, { LIMIT_MAX: '', OTHER: 'x' }), { LIMIT_MAX: 10 }, 'only what it declares, empty is unset');
  t.same(readSettings(settings, { LIMIT_MAX: '3', PEER_URL: 'https://peer' }), { LIMIT_MAX: 3, PEER_URL: 'https://peer' });
  const typo = t.throws(() => readSettings(settings, { LIMIT_MAX: 'diez' })) as ConfigError;
  t.equal(typo.variable, 'LIMIT_MAX');
  t.match(typo.message, /LIMIT_MAX must be an integer between 1 and ∞ \(got "diez"\)/);
  const url = t.throws(() => readSettings(settings, { PEER_URL: 'ftp://u:pw@h' })) as ConfigError;
  t.equal(url.variable, 'PEER_URL');
  t.notMatch(url.message, /pw@/);
});

t.test("the platform's config keeps none of a service's variables", async (t) => {
  const config = loadConfig({ GOOGLE_CLIENT_ID: 'x', CONTACTS_URL: 'http://contacts:3002', PORT: '3001' });
  t.equal(config.PORT, 3001);
  t.notOk('GOOGLE_CLIENT_ID' in config || 'CONTACTS_URL' in config);
});
