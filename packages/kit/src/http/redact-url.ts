/** Parameter names that carry a credential or a one-time proof (OAuth codes and states, tokens, keys). */
export const REDACTED_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'code',
  'state',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'verify_token',
  'client_secret',
  'secret',
  'key',
  'api_key',
  'password',
]);

/** The email tracking pixel and links carry their MAC as the last path segment: `/emails/track/open/<id>/<mac>`. */
const MAC_IN_PATH = /(\/emails\/track\/(?:open|click)\/[^/]+\/)[^/]+/;

/**
 * `name=value` after any delimiter a query or a fragment may use (`?`, `&`, `;`, `#`): a stray second `?`
 * or a `;` separator starts a parameter too, so a value never hides the next one.
 */
const QUERY_PARAMETER = /([?&;#])([^?&;#=]*)=([^?&;#]*)/g;
/** `;name=value` inside a path segment (matrix parameters); the value ends where the segment does. */
const PATH_PARAMETER = /;([^;/?#=]*)=([^;/?#]*)/g;

const CENSOR = '[redactado]';

/**
 * The names a raw parameter name stands for, as a server would read it: percent-escapes decoded once (byte by
 * byte, so a broken escape never hides the rest), spaces and controls dropped, lower case, and every key of a
 * bracketed or dotted name (`code[]`, `code[0]`, `oauth[code]`, `hub.verify_token`).
 */
function namesOf(raw: string): string[] {
  const decoded = raw.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  // Spaces and control characters (a `+` is a space in a query) are dropped, not read as part of the name.
  const bare = [...decoded].filter((c) => c > ' ' && c !== '+' && c !== '\u007f').join('');
  return bare
    .toLowerCase()
    .split(/[[\].]+/)
    .filter(Boolean);
}

const isRedacted = (raw: string) => namesOf(raw).some((name) => REDACTED_QUERY_PARAMETERS.has(name));

/**
 * A request URL fit for a log line: the values of the parameters above replaced wherever they sit (query,
 * path segment, fragment; each repetition), and the tracking MAC; everything else as received, so a log
 * still says which route and which harmless parameters.
 */
export function redactUrl(url: string): string {
  const end = url.search(/[?#]/);
  const path = (end === -1 ? url : url.slice(0, end))
    .replace(MAC_IN_PATH, `$1${CENSOR}`)
    .replace(PATH_PARAMETER, (whole, name: string) => (isRedacted(name) ? `;${name}=${CENSOR}` : whole));
  if (end === -1) return path;
  const rest = url.slice(end).replace(QUERY_PARAMETER, (whole, mark: string, name: string) => (isRedacted(name) ? `${mark}${name}=${CENSOR}` : whole));
  return `${path}${rest}`;
}
