import { defineSettings } from '@asistente/kit';
import { Type } from '@sinclair/typebox';

/** What WhatsApp reads from the environment, besides the platform's config. */
export const settings = defineSettings({
  /** WhatsApp Web's socket address, for proxies and tests; Baileys' default otherwise. */
  WHATSAPP_WS_URL: Type.Optional(Type.String({ pattern: '^wss?://' })),
  /** Least time between two automatic WhatsApp answers of one account (plus up to half again at random). */
  WHATSAPP_AUTOMATED_GAP_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 2000 }),
  /**
   * An account that never linked stops retrying after this many failed connection attempts (state `failed`,
   * "Reintentar" starts again); a linked account keeps reconnecting with backoff.
   */
  WHATSAPP_CONNECT_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
  /** …or once this long has passed since its first failed attempt, whichever comes first (3 minutes). */
  WHATSAPP_CONNECT_MAX_MS: Type.Integer({ minimum: 1_000, maximum: 3_600_000, default: 180_000 }),
  /** WhatsApp's official Cloud API (Meta's Graph host), overridable for proxies and tests. */
  WHATSAPP_CLOUD_API_URL: Type.String({ pattern: '^https?://', default: 'https://graph.facebook.com' }),
  /** The token Meta echoes in the webhook's verification handshake (set the same in Meta's app dashboard). */
  WHATSAPP_CLOUD_VERIFY_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  /** The Meta app's secret: every webhook POST is signed with it (`X-Hub-Signature-256`). */
  WHATSAPP_CLOUD_APP_SECRET: Type.Optional(Type.String({ minLength: 1 })),
});
