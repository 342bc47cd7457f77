/** What an RFC 6749 token endpoint answered: its status and its JSON body ({} when it sent none). */
export interface TokenEndpointAnswer {
  status: number;
  ok: boolean;
  body: Record<string, unknown>;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * A form-encoded POST to a token endpoint (RFC 6749 §4.1.3 and §6), for providers spoken to without an SDK.
 * Throws the fetch error when the endpoint cannot be reached; any HTTP answer is returned for the adapter
 * to read in its provider's terms.
 */
export async function postTokenRequest(url: string, params: Record<string, string>, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<TokenEndpointAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(params),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, ok: response.ok, body: body !== null && typeof body === 'object' ? body : {} };
}

/**
 * Revokes a token at an RFC 7009 endpoint (Google's, the request google-auth-library's `revokeToken` makes).
 * A 400 means the token is already revoked or expired, which is what was wanted; other refusals throw.
 */
export async function revokeAtEndpoint(url: string, token: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok && response.status !== 400) throw new Error(`revocation endpoint answered HTTP ${response.status}`);
}
