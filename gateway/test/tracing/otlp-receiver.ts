import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { SeenSpan } from './spans.js';

/** OTLP/JSON's numeric span kinds (SPAN_KIND_INTERNAL = 1 … SPAN_KIND_CONSUMER = 5). */
const KINDS: Record<number, SeenSpan['kind']> = { 1: 'internal', 2: 'server', 3: 'client', 4: 'producer', 5: 'consumer' };

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
}
interface OtlpExport {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function plain(attributes: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]));
}

/**
 * A local OTLP/HTTP receiver for `http/json` (what `OTEL_EXPORTER_OTLP_PROTOCOL=http/json` sends to
 * `<endpoint>/v1/traces`): it keeps every span it is sent, flattened, for a test to look through.
 * With `keep: false` it accepts and discards (the bench's collector).
 */
export class OtlpReceiver {
  readonly spans: SeenSpan[] = [];
  /** How many exports (POSTs to /v1/traces) arrived. */
  exports = 0;
  endpoint = '';
  private readonly server: Server;

  private constructor(private readonly keep: boolean) {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        this.exports++;
        if (this.keep) {
          const raw = Buffer.concat(chunks);
          const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
          this.take(JSON.parse(body.toString()) as OtlpExport);
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  }

  static async start(options: { keep?: boolean } = {}): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver(options.keep ?? true);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.endpoint = `http://127.0.0.1:${(receiver.server.address() as { port: number }).port}`;
    return receiver;
  }

  private take(body: OtlpExport): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = String(plain(resourceSpans.resource?.attributes)['service.name']);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service,
            name: span.name,
            kind: KINDS[span.kind] ?? 'internal',
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            attributes: plain(span.attributes),
          });
        }
      }
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
