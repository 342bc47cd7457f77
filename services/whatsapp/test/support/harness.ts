import type { App, Platform } from '@asistente/kit';
import { buildServicesApp, signToken, waitUntil, type Teardown } from '@asistente/kit/testing';
import contactsService from '@asistente/contacts';
import { createWhatsAppService, type WhatsAppServiceOptions } from '../../src/app.js';
import type { SessionManager } from '../../src/domain/session-manager.js';
import { FakePhone } from './fake-socket.js';

export const FAST = {
  timing: { backoffBaseMs: 20, backoffMaxMs: 200, staleMs: 60_000, watchdogMs: 60_000 },
  lease: { ttlMs: 2_000, tickMs: 100, connectWaitMs: 5_000 },
  pacing: { automatedGapMs: 0 },
};

/** Polls until a state holds (tests wait for states, never for time). */
export const until = waitUntil;

export interface Harness {
  app: App;
  phone: FakePhone;
  sessions: () => SessionManager;
}

export async function whatsappApp(
  t: Teardown,
  platform: Platform,
  options: WhatsAppServiceOptions = {},
  phone = new FakePhone(),
): Promise<Harness> {
  let sessions: SessionManager | undefined;
  const plugin = createWhatsAppService({
    makeSocket: phone.makeSocket,
    ...FAST,
    ...options,
    onSessions: (s) => {
      sessions = s;
    },
  });
  const app = await buildServicesApp(t, [plugin, contactsService], platform);
  // The accounts of a finished test stop wanting a socket, so the next test's replica does not claim them.
  t.teardown(() => platform.db.sql`update whatsapp.accounts set wanted = false`);
  return { app, phone, sessions: () => sessions! };
}

export function user(app: App) {
  const { userId, authorization } = signToken(app);
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: object) => {
    const response = await app.inject({ method, url: `/api${url}`, headers: { authorization }, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.body ? (response.json() as Record<string, unknown> & { data?: unknown[] }) : {} };
  };
  return { userId, authorization, call };
}

/**
 * A user whose account is linked (connect, the phone scans, the connection opens), with `idle()` to wait
 * until the session has stored everything the phone sent.
 */
export async function linkedUser(h: Harness) {
  const u = user(h.app);
  await u.call('POST', '/whatsapp/connect');
  h.phone.current.scan();
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'connected', 'connected');
  const idle = () => h.sessions().local(u.userId)!.idle();
  return { ...u, idle, socket: () => h.phone.current };
}
