/** Query parameters that carry a credential or a one-time proof (OAuth codes and states, tokens, keys). */
export const REDACTED_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'code',
  'state',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'key',
  'password',
]);

/** The email tracking pixel and links carry their MAC as the last path segment: `/emails/track/open/<id>/<mac>`. */
const MAC_IN_PATH = /(\/emails\/track\/(?:open|click)\/[^/]+\/)[^/]+/;

const CENSOR = '[redactado]';

function parameterName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * A request URL fit for a log line: the values of the parameters above and the tracking MAC replaced,
 * everything else as received (so a log still says which route and which harmless parameters).
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = (mark === -1 ? url : url.slice(0, mark)).replace(MAC_IN_PATH, `$1${CENSOR}`);
  if (mark === -1) return path;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals === -1 ? part : part.slice(0, equals);
      return equals !== -1 && REDACTED_QUERY_PARAMETERS.has(parameterName(name)) ? `${name}=${CENSOR}` : part;
    })
    .join('&');
  return `${path}?${query}`;
}
