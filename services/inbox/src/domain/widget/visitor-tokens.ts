import { createHmac, timingSafeEqual } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A visitor's id, signed for one widget: `<visitorId>.<mac>`, the MAC an HMAC-SHA256 (key derived from the
 * platform secret) over the widget's key and the id. The widget keeps it; nobody can make one for another
 * visitor, nor carry it to another business's widget.
 */
export class VisitorTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('asistente widget visitor v1').digest();
  }

  sign(widgetKey: string, visitorId: string): string {
    return `${visitorId}.${this.mac(widgetKey, visitorId)}`;
  }

  /** The visitor's id, if the token is one this widget gave. */
  verify(widgetKey: string, token: string): string | undefined {
    const [visitorId, mac, ...rest] = token.split('.');
    if (!visitorId || !mac || rest.length > 0 || !UUID.test(visitorId)) return undefined;
    const expected = Buffer.from(this.mac(widgetKey, visitorId));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given) ? visitorId : undefined;
  }

  private mac(widgetKey: string, visitorId: string): string {
    return createHmac('sha256', this.key).update(`${widgetKey}\n${visitorId}`).digest('base64url');
  }
}
