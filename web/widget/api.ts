import type { WidgetMessage, WidgetProfile, WidgetPublicConfig, WidgetThread, WidgetVisitor } from '@asistente/contracts';

/** What the visitor reads when the server cannot be reached or answers without a message of its own. */
const UNREACHABLE = 'No se pudo conectar con el chat. Inténtalo de nuevo en unos momentos.';

/** A refused call: the server's Spanish message, shown to the visitor as it is. */
export class WidgetError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ProfileFields {
  name?: string;
  email?: string;
  phone?: string;
}

/**
 * The public calls of one widget (/api/widget/:key/…), from the owner's website. POST bodies go as JSON text
 * with the browser's own `text/plain` and no custom header: a "simple" cross-origin request, so no preflight.
 * No cookies: the visitor is their signed token, nothing else.
 */
export function widgetApi(base: string, key: string) {
  const root = `${base}/api/widget/${encodeURIComponent(key)}`;

  async function call<T>(path: string, body?: object): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${root}${path}`, {
        method: body ? 'POST' : 'GET',
        credentials: 'omit',
        ...(body ? { headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(body) } : {}),
      });
    } catch {
      throw new WidgetError(0, UNREACHABLE);
    }
    const payload: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const message = payload && typeof payload === 'object' && 'message' in payload && typeof payload.message === 'string' ? payload.message : UNREACHABLE;
      throw new WidgetError(response.status, message);
    }
    return payload as T;
  }

  const withToken = (path: string, token: string) => `${path}?token=${encodeURIComponent(token)}`;

  return {
    config: () => call<WidgetPublicConfig>('/config'),
    newVisitor: () => call<WidgetVisitor>('/visitors', {}),
    thread: (token: string) => call<WidgetThread>(withToken('/messages', token)),
    send: (token: string, text: string) => call<WidgetMessage>('/messages', { token, text }),
    profile: (token: string, fields: ProfileFields) => call<WidgetProfile>('/profile', { token, ...fields }),
    streamUrl: (token: string) => `${root}${withToken('/stream', token)}`,
  };
}

export type WidgetApi = ReturnType<typeof widgetApi>;
