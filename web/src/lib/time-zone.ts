/** The browser's IANA time zone, so day-based figures follow the user's calendar days. */
export function userTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/Madrid';
}
