import { createHmac, timingSafeEqual } from 'node:crypto';

export type TrackingKind = 'open' | 'click';

export interface TrackingClaim {
  sentId: string;
  kind: TrackingKind;
  /** click only: where the link goes; signed, so the endpoint is no open redirect. */
  url?: string;
}

/**
 * Tokens in the pixel and the rewritten links of a sent mail: HMAC-SHA256 (key derived from the platform
 * secret) over the sent mail's id, the kind and the target URL, so nobody can forge an open or send a click
 * anywhere the mail did not link to.
 */
export class TrackingSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('asistente email tracking v1').digest();
  }

  sign(claim: TrackingClaim): string {
    const payload = Buffer.from(JSON.stringify([claim.sentId, claim.kind, claim.url ?? ''])).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  verify(token: string, kind: TrackingKind): TrackingClaim | undefined {
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const [sentId, claimed, url] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      if (typeof sentId !== 'string' || claimed !== kind || typeof url !== 'string') return undefined;
      if (kind === 'click' && !/^https?:\/\//i.test(url)) return undefined;
      return kind === 'click' ? { sentId, kind, url } : { sentId, kind };
    } catch {
      return undefined;
    }
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}

/**
 * Adds the open pixel and routes every http(s) link through the click endpoint. `base` is the public API
 * root (`PUBLIC_URL/api/emails/track`).
 */
export function addTracking(html: string, sentId: string, signer: TrackingSigner, base: string): string {
  const rewritten = html.replace(/(<a\b[^>]*?\bhref=)(["'])(https?:\/\/[^"']+)\2/gi, (_all, start: string, quote: string, url: string) => {
    const target = url.replace(/&amp;/g, '&');
    return `${start}${quote}${base}/click/${signer.sign({ sentId, kind: 'click', url: target })}${quote}`;
  });
  const pixel = `<img src="${base}/open/${signer.sign({ sentId, kind: 'open' })}" width="1" height="1" alt="" style="display:none">`;
  return /<\/body>/i.test(rewritten) ? rewritten.replace(/<\/body>/i, `${pixel}</body>`) : `${rewritten}${pixel}`;
}
