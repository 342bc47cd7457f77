import { insertBackdatedContacts } from '@asistente/contacts';
import type { App, Platform } from '@asistente/kit';
import { demoActivity } from './demo-activity.js';
import { demoContacts } from './demo-contacts.js';
import { Random } from './random.js';

export const DEMO_ACCOUNT = {
  firstName: 'Lucía',
  lastName: 'Martín',
  email: 'demo@miasistente.ia',
  password: 'demo1234',
  company: 'Ferretería Martín',
  phone: '+34 600 123 456',
} as const;

export interface DemoResult {
  created: boolean;
  email: string;
  password: string;
  contacts: number;
  events: number;
}

/**
 * Creates the demo account (through the real sign-up route) with a few
 * hundred contacts and 90 days of activity, all through the outboxes, the
 * relay and the analytics consumer, like real use. Idempotent: an existing
 * demo account is left as it is.
 */
export async function seedDemo(app: App, platform: Platform, now = new Date()): Promise<DemoResult> {
  const base = { created: false, email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password, contacts: 0, events: 0 };
  const signUp = await app.inject({ method: 'POST', url: '/api/auth/register', payload: DEMO_ACCOUNT });
  if (signUp.statusCode === 409) return base;
  if (signUp.statusCode !== 201) throw new Error(`demo sign-up failed: ${signUp.statusCode} ${signUp.body}`);
  const userId: string = signUp.json().user.id;

  const random = new Random(20261121);
  const contacts = await insertBackdatedContacts(platform, userId, demoContacts(random, 320, now));
  const events = demoActivity(random, userId, now);
  const outbox = platform.outbox('platform');
  for (let i = 0; i < events.length; i += 1000) {
    await platform.db.sql.begin((tx) => outbox.append(tx, events.slice(i, i + 1000)));
  }
  await platform.relay.drain();
  return { ...base, created: true, contacts, events: events.length + contacts };
}
