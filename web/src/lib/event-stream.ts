export interface ServerEvent {
  event: string;
  data: string;
  /** The stream's last `id:` so far ('' when it never sent one): what `Last-Event-ID` resumes from. */
  id?: string;
}

/**
 * Incremental `text/event-stream` parser (the WHATWG rules EventSource follows): fed decoded chunks as
 * they arrive, it answers the events completed so far and remembers the server's last `retry:`.
 */
export class EventStreamParser {
  retryMs: number | null = null;
  /** The last `id:` the server sent (kept across events, as EventSource does). */
  lastEventId = '';
  private pending = '';
  private event = '';
  private data: string[] = [];
  // A chunk that ends in CR may be half of a CRLF; the LF opening the next chunk is not an empty line.
  private afterCr = false;

  push(chunk: string): ServerEvent[] {
    let text = this.pending + chunk;
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = text.endsWith('\r');
    const lines = text.split(/\r\n|\r|\n/);
    this.pending = lines.pop() ?? '';
    const events: ServerEvent[] = [];
    for (const line of lines) {
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): ServerEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    return null;
  }

  private dispatch(): ServerEvent | null {
    const event =
      this.data.length > 0 ? { event: this.event || 'message', data: this.data.join('\n'), ...(this.lastEventId ? { id: this.lastEventId } : {}) } : null;
    this.event = '';
    this.data = [];
    return event;
  }
}
