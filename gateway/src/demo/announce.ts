import type { App, Platform } from '@asistente/kit';
import { seedDemo } from './seed-demo.js';

/** Seeds the demo account if needed and tells the person how to sign in. */
export async function seedAndAnnounce(app: App, platform: Platform, url: string): Promise<void> {
  const started = Date.now();
  const demo = await seedDemo(app, platform);
  const what = demo.created
    ? `created with ${demo.contacts} contacts and ${demo.events} events in ${((Date.now() - started) / 1000).toFixed(1)} s`
    : 'already present';
  platform.log.info({ email: demo.email, created: demo.created }, `demo account ${what}`);
  console.log(`\n  Cuenta de demostración (${demo.created ? 'creada' : 'ya existía'}): ${demo.email} / ${demo.password}\n  Abre ${url}/login\n`);
}
