import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { util, type Dispatcher } from 'undici';

/** What a replica answered: small answers whole, the rest (exports, live streams) as a stream. */
export interface UpstreamAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer | Readable;
}

/**
 * One request to a replica through undici's dispatcher, answered in the shape the gateway writes back.
 * `Pool.request` wraps every answer in a Readable with its own async scope, even one of a few hundred
 * bytes read whole at once; that wrapping was a tenth of the gateway's CPU per request. Here an answer
 * with a known size up to `wholeLimit` is gathered into one buffer, and only a larger or unsized one is a
 * stream, read at the pace of its reader: undici is paused while the reader is full, and a reader that
 * goes away (the client left) aborts the request upstream.
 *
 * Settles once: rejected when the exchange fails before the answer's head arrived (the caller may try
 * another replica), else resolved; a stream that fails later is destroyed with the error.
 */
export function requestUpstream(pool: Dispatcher, options: Dispatcher.DispatchOptions, wholeLimit: number): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    let abort: ((error?: Error) => void) | undefined;
    let answer: { statusCode: number; headers: IncomingHttpHeaders } | undefined;
    const chunks: Buffer[] = [];
    let stream: Readable | undefined;
    let complete = false;
    pool.dispatch(options, {
      onConnect(abortRequest) {
        abort = abortRequest;
      },
      onHeaders(statusCode, rawHeaders, resume) {
        // 1xx heads are informational: the answer's own head follows.
        if (statusCode < 200) return true;
        const headers = util.parseHeaders(rawHeaders) as IncomingHttpHeaders;
        const length = Number(headers['content-length'] ?? NaN);
        if (length <= wholeLimit) {
          answer = { statusCode, headers };
          return true;
        }
        stream = new Readable({
          read: () => resume(),
          // Destroyed before its end (the client went away, or a write failed): the replica stops too.
          destroy: (error, done) => {
            if (!complete) abort?.(error ?? new Error('the answer\'s reader went away'));
            done(error);
          },
        });
        resolve({ statusCode, headers, body: stream });
        return true;
      },
      onData(chunk) {
        if (stream) return stream.push(chunk);
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        complete = true;
        if (stream) stream.push(null);
        else if (answer) resolve({ ...answer, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
      },
      onError(error) {
        if (stream) stream.destroy(error);
        else reject(error);
      },
    });
  });
}
