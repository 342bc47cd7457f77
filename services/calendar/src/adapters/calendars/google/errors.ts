import { ProviderError } from '../../../domain/provider-errors.js';

interface GoogleErrorShape {
  status?: number;
  message?: string;
  config?: { url?: string | URL };
  response?: { status?: number; data?: unknown };
}

const RATE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded']);

function statusOf(error: GoogleErrorShape): number | undefined {
  return error.status ?? error.response?.status;
}

/** The `reason` of Google's error body (`{ error: { errors: [{ reason }] } }`), or OAuth's `{ error: 'invalid_grant' }`. */
function reasonOf(error: GoogleErrorShape): string | undefined {
  const data = error.response?.data as { error?: unknown } | undefined;
  if (!data || typeof data !== 'object') return undefined;
  if (typeof data.error === 'string') return data.error;
  const errors = (data.error as { errors?: { reason?: unknown }[] } | undefined)?.errors;
  const reason = errors?.[0]?.reason;
  return typeof reason === 'string' ? reason : undefined;
}

/** A 429, or Google's 403 that means "slow down" rather than "not allowed": worth retrying after a pause. */
export function isRateLimited(error: unknown): boolean {
  const e = error as GoogleErrorShape;
  const status = statusOf(e);
  return status === 429 || (status === 403 && RATE_LIMIT_REASONS.has(reasonOf(e) ?? ''));
}

/** Any failure of the Google client, as the kinds the domain handles. */
export function toProviderError(error: unknown, tokenUrl: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const e = error as GoogleErrorShape;
  const status = statusOf(e);
  const url = String(e.config?.url ?? '');
  const message = e.message ?? String(error);
  if (url.startsWith(tokenUrl)) {
    // A refresh Google refuses with invalid_grant: the user revoked access or the grant expired.
    return new ProviderError(reasonOf(e) === 'invalid_grant' ? 'revoked' : 'unavailable', message, status);
  }
  if (/no refresh token/i.test(message)) return new ProviderError('revoked', message);
  if (isRateLimited(error)) return new ProviderError('rate_limited', message, status);
  switch (status) {
    case 400:
      return new ProviderError('invalid', message, status);
    case 401:
      return new ProviderError('revoked', message, status);
    case 403:
      return new ProviderError('forbidden', message, status);
    case 404:
      return new ProviderError('not_found', message, status);
    case 410:
      return new ProviderError('sync_expired', message, status);
    default:
      return new ProviderError('unavailable', message, status);
  }
}
