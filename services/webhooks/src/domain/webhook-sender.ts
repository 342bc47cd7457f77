/** How an attempt ended, as the log and the retry schedule see it. */
export interface SendResult {
  /** The receiver's HTTP status; null when no answer came (refused, timed out, not allowed). */
  status: number | null;
  latencyMs: number;
  /** Why it is not a success, in Spanish; null for a 2xx. */
  error: string | null;
}

/** The port deliveries leave through (the HTTP adapter in production; tests and benches may put another). */
export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
}
