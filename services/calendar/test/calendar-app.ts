import { buildServiceApp, createTestPlatform, type Teardown } from '@asistente/kit/testing';
import calendarService from '../src/app.js';
import { GooglePeer } from './google-peer.js';

/** The calendar service on a platform of its own, its Google endpoints pointed at a fresh peer. */
export async function calendarWithPeer(t: Teardown, publicUrl: string) {
  const peer = await new GooglePeer().start();
  t.teardown(() => peer.stop());
  const platform = await createTestPlatform(t, { config: { ...peer.config(), PUBLIC_URL: publicUrl } });
  const app = await buildServiceApp(t, calendarService, platform);
  return { peer, platform, app, sql: platform.db.sql };
}

export const DAY = 86_400_000;

/** `days` from now at `hour`:00 UTC. */
export function inDays(days: number, hour = 10): Date {
  const d = new Date(Date.now() + days * DAY);
  d.setUTCHours(hour, 0, 0, 0);
  return d;
}
