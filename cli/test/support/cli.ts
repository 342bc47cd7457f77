import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { authPlugin, createHttpApp, type App, type Platform, type ServicePlugin } from '@asistente/kit';
import { createTestPlatform, type Teardown } from '@asistente/kit/testing';
import { TEST_APP_NODE_ARGS } from '@asistente/kit/testing/migrated-data-dir';
import { buildGateway, type Topology } from '../../../gateway/src/gateway.js';
import { ROUTES } from '../../../gateway/src/routing-table.js';

/** What `npx asistente` runs: the build `npm test` makes first (a TypeScript transform cost each command about 0.7 s of CPU). */
const BIN = fileURLToPath(new URL('../../bin/asistente.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The command as a user or operator runs it, built (the wiring, options and output are what is tested). Only PATH and LANG come from the runner, never its config file: a session comes only from
 * --token / ASISTENTE_TOKEN. `stdin` is piped in and closed (a password with --password-stdin).
 */
export function runCli(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [...TEST_APP_NODE_ARGS, BIN, ...args], {
    env: { PATH: process.env.PATH, LANG: 'C.UTF-8', XDG_CONFIG_HOME: '/nonexistent', ...options.env },
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The distributed gateway listening on a port, every route sent to one app on the same platform that serves
 * `plugins` (so a test mounts only the services it needs; auth asks the others over HTTP). `base` is the
 * gateway's URL for --api-url.
 */
export async function distributedGateway(t: Teardown, plugins: ServicePlugin[]) {
  const port = await freePort();
  const servicesUrl = `http://127.0.0.1:${port}`;
  const platform = await createTestPlatform(t, { config: Object.fromEntries(ROUTES.map((r) => [r.urlVariable, servicesUrl])) });
  const services = createHttpApp({ log: platform.log, bodyLimit: platform.config.BODY_LIMIT_BYTES, streams: platform.streams });
  await services.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  for (const plugin of plugins) await services.register(plugin, { platform });
  await services.listen({ port, host: '127.0.0.1' });
  t.teardown(() => services.close());
  return { platform, ...(await listeningGateway(t, platform, 'distributed')) };
}

/** The gateway of `platform` listening on a free port; `base` is its URL for --api-url. */
export async function listeningGateway(t: Teardown, platform: Platform, topology: Topology) {
  const gateway = await buildGateway(platform, topology);
  const base = await gateway.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => gateway.close());
  return { gateway, base };
}

/** Registers Rosa Vidal with `email` and gives her one contact; her session token and user id. */
export async function ownerWithContact(gateway: App, email: string, contact: { firstName: string; lastName: string }) {
  const registered = await gateway.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { firstName: 'Rosa', lastName: 'Vidal', email, password: 'secreto1' },
  });
  const { token, user } = registered.json<{ token: string; user: { id: string } }>();
  await gateway.inject({ method: 'POST', url: '/api/contacts', headers: { authorization: `Bearer ${token}` }, payload: contact });
  return { token, userId: user.id };
}
