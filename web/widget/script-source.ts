/**
 * Where the widget's server is, from the address its script was loaded from: the owner pastes
 * `<script src="PUBLIC_URL/widget.js" …>`, so the API is PUBLIC_URL's, whatever page embeds it (PUBLIC_URL may
 * carry a path when the install is served below one). Null for an address that is not the widget's.
 */
export function serverBase(scriptSrc: string): string | null {
  let url: URL;
  try {
    url = new URL(scriptSrc);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (!url.pathname.endsWith('/widget.js')) return null;
  return `${url.origin}${url.pathname.slice(0, -'/widget.js'.length)}`;
}
