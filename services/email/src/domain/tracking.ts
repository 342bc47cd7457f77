import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The MACs in the pixel and the rewritten links of a sent mail: HMAC-SHA256 (key derived from the platform
 * secret) over the kind, the sent mail's id and, for a click, the target URL. Nobody can forge an open, and
 * the click endpoint only goes where the mail itself linked to (no open redirect).
 */
export class TrackingSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('asistente email tracking v1').digest();
  }

  open(sentId: string): string {
    return this.mac(`open\n${sentId}`);
  }

  click(sentId: string, url: string): string {
    return this.mac(`click\n${sentId}\n${url}`);
  }

  verifyOpen(sentId: string, mac: string): boolean {
    return same(this.open(sentId), mac);
  }

  verifyClick(sentId: string, url: string, mac: string): boolean {
    return /^https?:\/\//i.test(url) && same(this.click(sentId, url), mac);
  }

  private mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }
}

function same(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The pixel's address: `<base>/open/<sentId>/<mac>`. */
export function openUrl(base: string, sentId: string, signer: TrackingSigner): string {
  return `${base}/open/${sentId}/${signer.open(sentId)}`;
}

/** A link's address: `<base>/click/<sentId>/<mac>?u=<target>`. */
export function clickUrl(base: string, sentId: string, url: string, signer: TrackingSigner): string {
  return `${base}/click/${sentId}/${signer.click(sentId, url)}?u=${encodeURIComponent(url)}`;
}

/**
 * Adds the open pixel and routes every http(s) link through the click endpoint. `base` is the public
 * tracking root (`PUBLIC_URL/api/emails/track`).
 */
export function addTracking(html: string, sentId: string, signer: TrackingSigner, base: string): string {
  const rewritten = html.replace(/(<a\b[^>]*?\bhref=)(["'])(https?:\/\/[^"']+)\2/gi, (_all, start: string, quote: string, url: string) => {
    const target = url.replace(/&amp;/g, '&');
    return `${start}${quote}${clickUrl(base, sentId, target, signer).replace(/&/g, '&amp;')}${quote}`;
  });
  const pixel = `<img src="${openUrl(base, sentId, signer)}" width="1" height="1" alt="" style="display:none">`;
  return /<\/body>/i.test(rewritten) ? rewritten.replace(/<\/body>/i, `${pixel}</body>`) : `${rewritten}${pixel}`;
}
