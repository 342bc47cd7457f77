/** How often the open screen asks for what changed, until the inbox has a live stream (the browser test drives it). */
export const INBOX_REFRESH_MS = 5_000;
