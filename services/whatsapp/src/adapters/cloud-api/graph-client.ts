// The Graph API calls of WhatsApp's Cloud API, made with `whatsapp-api-js` (its message builders and its
// authenticated fetch). The library only knows Meta's host: its fetch ponyfill sends every call to
// WHATSAPP_CLOUD_API_URL instead, with a deadline, and keeps the HTTP status the library throws away.
import type { WhatsAppAPI } from 'whatsapp-api-js';
import type { ClientMessage } from 'whatsapp-api-js/types';
import type { CloudContent } from '../../domain/cloud-content.js';

/** The Graph API version every call names (pinned: Meta retires versions on a schedule, never silently). */
export const GRAPH_API_VERSION = 'v23.0';
const META_HOST = 'https://graph.facebook.com';

export interface GraphTiming {
  /** One HTTP call's deadline. */
  timeoutMs: number;
  /** Extra tries of a safe call (a read) after a network failure, a 429 or a 5xx. */
  retries: number;
  /** The first retry's wait; doubled per retry, with jitter. */
  backoffMs: number;
}

export const DEFAULT_GRAPH_TIMING: GraphTiming = { timeoutMs: 10_000, retries: 2, backoffMs: 300 };

/**
 * What went wrong with a call, in the terms the service acts on: the token (`auth`), what it may reach
 * (`permission`), an id that names nothing (`not_found`), Meta refusing this one request (`refused`, with
 * Meta's own code), or Meta not answering (`unreachable`).
 */
export type GraphFailure = 'auth' | 'permission' | 'not_found' | 'refused' | 'unreachable';

export class GraphError extends Error {
  constructor(
    readonly failure: GraphFailure,
    readonly status: number | null,
    readonly code: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

interface GraphErrorBody {
  error?: { message?: string; code?: number; type?: string };
}

export interface PhoneNumberFields {
  displayPhone: string | null;
  verifiedName: string | null;
  qualityRating: string | null;
}

export interface GraphTemplate {
  name: string;
  language: string;
  status: string;
  category: string;
  components: { type: string; text?: string; format?: string }[];
}

export interface UploadedMedia {
  data: Uint8Array;
  mimeType: string;
  fileName: string | null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function failureOf(status: number, code: number | null): GraphFailure {
  // Meta's codes first (its statuses are not always telling): 190 expired or invalid token, 10 and 200-299
  // permissions, 100 an unknown object or field, 803 an unknown alias.
  if (code === 190 || status === 401) return 'auth';
  if (code === 10 || (code !== null && code >= 200 && code <= 299) || status === 403) return 'permission';
  if (code === 100 || code === 803 || status === 404) return 'not_found';
  return 'refused';
}

/** One workspace's calls (its token), through the library, to the configured host. */
export class GraphClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timing: GraphTiming = DEFAULT_GRAPH_TIMING,
  ) {}

  private readonly root = (): string => this.baseUrl.replace(/\/+$/, '');

  /** The library, built for one call: its fetch goes to our host and reports the status it got. */
  private async api(token: string, seen: { status: number | null }): Promise<WhatsAppAPI> {
    const { WhatsAppAPI: Api } = await import('whatsapp-api-js');
    const root = this.root();
    const timeoutMs = this.timing.timeoutMs;
    const fetchToOurHost = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = String(input instanceof Request ? input.url : input);
      const target = url.startsWith(META_HOST) ? root + url.slice(META_HOST.length) : url;
      const response = await fetch(target, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      seen.status = response.status;
      return response;
    };
    // `secure: false`: this instance only calls out; webhooks are checked by the route with the app secret.
    return new Api({ token, v: GRAPH_API_VERSION, secure: false, ponyfill: { fetch: fetchToOurHost } });
  }

  /** One call: its JSON body, or a GraphError (a network failure or a timeout is `unreachable`). */
  private async call<T>(token: string, work: (api: WhatsAppAPI) => Promise<unknown>): Promise<T> {
    const seen: { status: number | null } = { status: null };
    let body: unknown;
    try {
      body = await work(await this.api(token, seen));
    } catch (error) {
      if (error instanceof GraphError) throw error;
      // A body that is not JSON (a proxy's error page) still says the status it came with.
      if (seen.status !== null && seen.status >= 400 && seen.status < 500) throw new GraphError(failureOf(seen.status, null), seen.status, null, 'Graph API error');
      throw new GraphError('unreachable', seen.status, null, error instanceof Error ? error.message : 'Graph API unreachable');
    }
    const status = seen.status ?? 0;
    const failed = (body as GraphErrorBody | null)?.error;
    if (status >= 500 || status === 429) throw new GraphError('unreachable', status, failed?.code ?? null, failed?.message ?? `Graph API ${status}`);
    if (failed || status >= 400) throw new GraphError(failureOf(status, failed?.code ?? null), status, failed?.code ?? null, failed?.message ?? `Graph API ${status}`);
    return body as T;
  }

  /** A read, tried again after a network failure, a 429 or a 5xx (a read repeated changes nothing). */
  private async read<T>(token: string, path: string): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.call<T>(token, async (api) => (await api.$$apiFetch$$(`${META_HOST}/${GRAPH_API_VERSION}/${path}`)).json());
      } catch (error) {
        if (!(error instanceof GraphError) || error.failure !== 'unreachable' || attempt >= this.timing.retries) throw error;
        await sleep(this.timing.backoffMs * 2 ** attempt * (0.5 + Math.random() / 2));
      }
    }
  }

  async phoneNumber(token: string, phoneNumberId: string): Promise<PhoneNumberFields> {
    const body = await this.read<{ display_phone_number?: string; verified_name?: string; quality_rating?: string }>(
      token,
      `${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name,quality_rating`,
    );
    return { displayPhone: body.display_phone_number ?? null, verifiedName: body.verified_name ?? null, qualityRating: body.quality_rating ?? null };
  }

  /** The account's approved templates (the first 100: a small business has a handful). */
  async approvedTemplates(token: string, businessAccountId: string): Promise<GraphTemplate[]> {
    const body = await this.read<{ data?: GraphTemplate[] }>(
      token,
      `${encodeURIComponent(businessAccountId)}/message_templates?fields=name,language,status,category,components&status=APPROVED&limit=100`,
    );
    return (body.data ?? []).filter((template) => template.status === 'APPROVED');
  }

  /** Sends one message; answers Meta's id for it (`wamid.…`), which its status webhooks name. Not retried here. */
  async send(token: string, phoneNumberId: string, toDigits: string, content: CloudContent): Promise<string> {
    const message = await buildMessage(content);
    const body = await this.call<{ messages?: { id: string }[] }>(token, (api) => api.sendMessage(phoneNumberId, toDigits, message));
    const id = body.messages?.[0]?.id;
    if (!id) throw new GraphError('refused', null, null, 'Graph API answered no message id');
    return id;
  }

  /** Uploads a file for a later send; answers its media id. */
  async upload(token: string, phoneNumberId: string, media: UploadedMedia): Promise<string> {
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('file', new Blob([media.data], { type: media.mimeType }), media.fileName ?? 'archivo');
    // The library's own checks (types and sizes Meta accepts) speak English: ours ran before, in Spanish.
    const body = await this.call<{ id?: string }>(token, (api) => api.uploadMedia(phoneNumberId, form, false));
    if (!body.id) throw new GraphError('refused', null, null, 'Graph API answered no media id');
    return body.id;
  }
}

/** The library's message for what the service stored. */
async function buildMessage(content: CloudContent): Promise<ClientMessage> {
  const m = await import('whatsapp-api-js/messages');
  switch (content.type) {
    case 'text':
      return new m.Text(content.text);
    case 'template': {
      const parameters = content.variables.map((value) => new m.BodyParameter(value));
      const [first, ...rest] = parameters;
      return first ? new m.Template(content.name, new m.Language(content.language), new m.BodyComponent(first, ...rest)) : new m.Template(content.name, new m.Language(content.language));
    }
    case 'image':
      return new m.Image(content.mediaId, true, content.caption ?? undefined);
    case 'video':
      return new m.Video(content.mediaId, true, content.caption ?? undefined);
    case 'audio':
      return new m.Audio(content.mediaId, true);
    case 'document':
      return new m.Document(content.mediaId, true, content.caption ?? undefined, content.fileName ?? undefined);
  }
}
