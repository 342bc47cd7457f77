import type { FastifyReply, FastifyRequest } from 'fastify';
import { endedSessionCovers, type SessionsEnded } from '../auth/revocations.js';

/** How long a browser waits before reconnecting after the server ended its stream (SSE `retry`). */
export const RECONNECT_AFTER_MS = 1_000;

/** One open Server-Sent Events response. */
export interface LiveStream {
  /** Who opened it. */
  readonly userId: string;
  /** Whose data it shows. */
  readonly workspaceId: string;
  /** False once the client left or the server ended it. */
  readonly open: boolean;
  /** Sends one event (`data` is sent as JSON). */
  send(event: string, data: unknown): void;
  /** Sends a comment line (heartbeats). */
  comment(text: string): void;
  /** Runs when the stream ends, whoever ended it. */
  onClose(fn: () => void): void;
}

interface Entry extends LiveStream {
  jti: string;
  issuedAtMs: number;
  end(event: string, data: unknown): void;
}

/**
 * Every live stream this process holds, so none outlives what it depends on:
 * at shutdown each is ended with a reconnect hint (a stream is a request that
 * never finishes, and would hold SIGTERM forever); when its session ends
 * (logout, password change) it is closed at once. Routes open streams with
 * `open()` instead of writing to the raw response themselves.
 */
export class LiveStreams {
  private readonly entries = new Set<Entry>();

  get size(): number {
    return this.entries.size;
  }

  /**
   * Takes over `reply` as an SSE response for the authenticated user of `request`, or for `guest`: a caller with
   * no session (a website's visitor), whose stream no logout ends but a shutdown does. Headers set on
   * `reply.raw` before (CORS) are kept.
   */
  open(request: FastifyRequest, reply: FastifyReply, guest?: { id: string; workspaceId: string }): LiveStream {
    const retryMs = 3_000;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': String(request.id),
    });
    res.write(`retry: ${retryMs}\n\n`);
    const closers: (() => void)[] = [];
    let open = true;
    const finish = () => {
      if (!open) return;
      open = false;
      this.entries.delete(entry);
      for (const fn of closers) fn();
    };
    const write = (text: string) => {
      if (open && !res.writableEnded) res.write(text);
    };
    const entry: Entry = {
      userId: guest?.id ?? request.user.id,
      workspaceId: guest?.workspaceId ?? request.user.workspaceId,
      // No session of a guest's can end: no logout reaches its stream.
      jti: guest ? '' : request.user.jti,
      issuedAtMs: guest ? Number.POSITIVE_INFINITY : (request.user.issuedAtMs ?? 0),
      get open() {
        return open;
      },
      send: (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
      comment: (text) => write(`: ${text}\n\n`),
      onClose: (fn) => void closers.push(fn),
      end: (event, data) => {
        write(`retry: ${RECONNECT_AFTER_MS}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        finish();
        res.end();
      },
    };
    this.entries.add(entry);
    request.raw.once('close', finish);
    res.once('close', finish);
    return entry;
  }

  /** Closes the streams of sessions that just ended (logout, password change). */
  endSessions(ended: SessionsEnded): void {
    for (const entry of this.entries) {
      if (endedSessionCovers(ended, { id: entry.userId, workspaceId: entry.workspaceId, jti: entry.jti, issuedAtMs: entry.issuedAtMs })) {
        entry.end('session-ended', {});
      }
    }
  }

  /** Shutdown: every stream ends now with a hint to reconnect (to another replica, or this one restarted). */
  closeAll(): void {
    for (const entry of this.entries) entry.end('reconnect', { reason: 'shutdown' });
  }
}
