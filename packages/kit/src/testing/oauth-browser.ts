import { OAUTH_BROWSER_COOKIE } from '../auth/oauth-flow.js';

/** What a response's `set-cookie` looks like through `inject` or `fetch`. */
type SetCookie = string | string[] | null | undefined;

/**
 * The `Cookie` header a browser would send back to the OAuth callback, from the answer that handed out the
 * consent URL (its `set-cookie`): how tests play the browser that started the flow.
 */
export function oauthCookie(setCookie: SetCookie): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const pair = all.map((line) => line.split(';')[0]!.trim()).find((p) => p.startsWith(`${OAUTH_BROWSER_COOKIE}=`));
  if (!pair) throw new Error(`no ${OAUTH_BROWSER_COOKIE} cookie in ${JSON.stringify(setCookie)}`);
  return pair;
}
