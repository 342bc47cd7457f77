import { SpanKind, SpanStatusCode, context, trace, type Attributes } from '@opentelemetry/api';
import { kitTracer, tracingOn } from './trace-context.js';

/**
 * Runs an outside call that is not HTTP (an SMTP send, an IMAP connection, a WhatsApp send over Baileys'
 * socket) under a client span with its outcome. `attributes` name the peer and the operation, never a
 * credential or a message body; a failure records its code, not its message (which may quote either).
 */
export async function traceClientCall<T>(name: string, attributes: Attributes, call: () => Promise<T>): Promise<T> {
  if (!tracingOn()) return call();
  const span = kitTracer().startSpan(name, { kind: SpanKind.CLIENT, attributes });
  try {
    return await context.with(trace.setSpan(context.active(), span), call);
  } catch (error) {
    const code = (error as { code?: unknown; name?: unknown }).code ?? (error as { name?: unknown }).name;
    span.setStatus({ code: SpanStatusCode.ERROR, message: typeof code === 'string' ? code : 'failed' });
    throw error;
  } finally {
    span.end();
  }
}
