/** How often the screen asks what changed while its live stream is down (or absent); live, it never polls. */
export const INBOX_FALLBACK_POLL_MS = 30_000;
