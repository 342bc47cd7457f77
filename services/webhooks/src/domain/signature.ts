import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks' secret prefix: what follows is the base64 of the key bytes. */
const SECRET_PREFIX = 'whsec_';
/** 24 bytes (192 bits) as the specification's minimum; 32 costs nothing more. */
const SECRET_BYTES = 32;

/** A new signing secret, shown to its owner once. */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * The three headers of the Standard Webhooks specification: `webhook-signature` is `v1,` and the base64
 * HMAC-SHA256 of `id.timestamp.body` keyed with the secret's decoded bytes (what `standardwebhooks`
 * verifies). `timestamp` is whole seconds since the epoch.
 */
export function signedHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${signature}`,
  };
}
