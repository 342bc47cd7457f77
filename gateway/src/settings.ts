import { SERVICE_NAMES, SIGN_IN_LIMIT_SETTINGS } from '@asistente/contracts';
import { defineSettings, serviceUrls } from '@asistente/kit';
import { Type } from '@sinclair/typebox';

/** What the gateway reads from the environment, besides the platform's config. */
export const settings = defineSettings({
  /** Sign-in limits per client address are multiples of auth's per account (same variables). */
  ...SIGN_IN_LIMIT_SETTINGS,
  RATE_LIMIT_REGISTER_MAX: Type.Integer({ minimum: 1, default: 30 }),
  /** The built web app it serves; web/dist of this checkout by default. */
  WEB_DIST: Type.Optional(Type.String({ minLength: 1 })),
  /** Seed the demo account at start (same as `npm start -- --demo`). */
  DEMO: Type.Boolean({ default: false }),
});

/** Every service's `<NAME>_URL`: any set makes the gateway the edge of the distributed topology. */
export const upstreams = serviceUrls(SERVICE_NAMES);
