import { randomUUID } from 'node:crypto';
import type { App, Platform, ServicePlugin } from '@asistente/kit';
import { buildServicesApp, insertAccount, type Teardown } from '@asistente/kit/testing';
import authService from '@asistente/auth';
import contactsService from '@asistente/contacts';
import { createWhatsAppService } from '@asistente/whatsapp';
import inboxService from '../../src/app.js';
import { FakePhone, type FakeSocket } from '../../../whatsapp/test/support/fake-socket.js';
import { until } from '../../../whatsapp/test/support/harness.js';

export { until };

export type Role = 'owner' | 'admin' | 'agent';
export type Body = Record<string, unknown> & { data?: Record<string, unknown>[] };

export interface Member {
  userId: string;
  name: string;
  token: string;
  call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: object, headers?: Record<string, string>): Promise<{ status: number; body: Body }>;
}

/**
 * A workspace as a team uses it: auth (its members), WhatsApp on a fake phone, contacts and the inbox (and any
 * `more` services), in one process; `inbox` is the inbox built with other channels. `member()` adds a person with a role and signs them in to the workspace.
 */
export async function teamInbox(t: Teardown, platform: Platform, more: ServicePlugin[] = [], inbox: ServicePlugin = inboxService) {
  const phone = new FakePhone();
  const whatsapp = createWhatsAppService({
    makeSocket: phone.makeSocket,
    timing: { backoffBaseMs: 20, backoffMaxMs: 200, staleMs: 60_000, watchdogMs: 60_000 },
    lease: { ttlMs: 2_000, tickMs: 100, connectWaitMs: 5_000 },
    pacing: { automatedGapMs: 0 },
  });
  const app: App = await buildServicesApp(t, [authService, whatsapp, contactsService, inbox, ...more], platform);
  t.teardown(() => platform.db.sql`update whatsapp.accounts set wanted = false`);
  const { sql } = platform.db;
  const workspaceId = await insertAccount(sql);

  const signIn = (userId: string, role: Role, name: string): Member => {
    const token = app.jwt.sign({ sub: userId, wid: workspaceId, role, jti: randomUUID(), ims: Date.now() });
    return {
      userId,
      name,
      token,
      async call(method, url, payload, headers = {}) {
        const response = await app.inject({ method, url: `/api${url}`, headers: { authorization: `Bearer ${token}`, ...headers }, ...(payload ? { payload } : {}) });
        return { status: response.statusCode, body: response.body ? (response.json() as Body) : {} };
      },
    };
  };

  const owner = signIn(workspaceId, 'owner', 'Ana López');
  return {
    app,
    phone,
    sql,
    workspaceId,
    owner,
    async member(role: Exclude<Role, 'owner'>, firstName: string, lastName: string): Promise<Member> {
      const id = randomUUID();
      await sql.begin(async (tx) => {
        await tx`insert into auth.users (id, first_name, last_name, email, password_hash) values (${id}, ${firstName}, ${lastName}, ${`${id}@ejemplo.es`}, 'x')`;
        await tx`insert into auth.members (workspace_id, user_id, role) values (${workspaceId}, ${id}, ${role})`;
      });
      return signIn(id, role, `${firstName} ${lastName}`);
    },
    /** The owner links the workspace's WhatsApp number on the fake phone. */
    async link(): Promise<FakeSocket> {
      await owner.call('POST', '/whatsapp/connect');
      phone.current.scan();
      await until(async () => (await owner.call('GET', '/whatsapp/status')).body.state === 'connected', 'connected');
      return phone.current;
    },
  };
}

export interface LiveEvent {
  event: string;
  data: Record<string, unknown>;
}

/**
 * A member's live stream over a real socket (`app` listening), collecting its events: `next()` waits for the
 * first one not yet taken that matches. Closed at the test's end.
 */
export async function openLive(t: Teardown, app: App, member: Member) {
  return openStream(t, app, '/api/conversations/stream', { authorization: `Bearer ${member.token}` });
}

/** The app's address, listening from the first call on. */
export async function listening(app: App): Promise<string> {
  const bound = app.server.address();
  return bound && typeof bound === 'object' ? `http://127.0.0.1:${bound.port}` : app.listen({ port: 0, host: '127.0.0.1' });
}

/** Any live stream of the app's (a member's, a website visitor's), read as `openLive` reads a member's. */
export async function openStream(t: Teardown, app: App, path: string, headers: Record<string, string>) {
  const address = await listening(app);
  const abort = new AbortController();
  const res = await fetch(`${address}${path}`, { headers, signal: abort.signal });
  if (res.status !== 200) throw new Error(`stream answered ${res.status}`);
  const events: LiveEvent[] = [];
  let taken = 0;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
    } catch {
      // Aborted at the end of the test.
    }
  })();
  t.teardown(() => abort.abort());
  return {
    headers: res.headers,
    async next(event: string, matches: (data: Record<string, unknown>) => boolean = () => true): Promise<LiveEvent['data']> {
      return until(() => {
        for (let i = taken; i < events.length; i++) {
          if (events[i]!.event === event && matches(events[i]!.data)) {
            taken = i + 1;
            return events[i]!.data;
          }
        }
        return undefined;
      }, `a live ${event} event`);
    },
  };
}
