/** A finished span as the tests read it, whether it came from memory or from an OTLP/JSON export. */
export interface SeenSpan {
  service: string;
  name: string;
  kind: 'server' | 'client' | 'producer' | 'consumer' | 'internal';
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
}

/** Polls `read` until `found` holds: a test waits for the spans to arrive, never for a fixed time. */
export async function waitForSpans(read: () => SeenSpan[], found: (spans: SeenSpan[]) => boolean, timeoutMs: number): Promise<SeenSpan[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const spans = read();
    if (found(spans)) return spans;
    if (Date.now() > deadline) return spans;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether `span` descends from `ancestor` through parent links among `spans`. */
export function descendsFrom(span: SeenSpan, ancestor: SeenSpan, spans: SeenSpan[]): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  let current: SeenSpan | undefined = span;
  for (let hops = 0; current && hops < 50; hops++) {
    if (current.parentSpanId === ancestor.spanId) return true;
    current = current.parentSpanId ? byId.get(current.parentSpanId) : undefined;
  }
  return false;
}
