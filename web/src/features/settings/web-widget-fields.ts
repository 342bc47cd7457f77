/** The colour a new chat starts with: the app's own blue. */
export const DEFAULT_WIDGET_COLOR = '#2563eb';

/** «Orígenes permitidos», one a line, as the API takes them: trimmed, without a trailing slash, blank lines and repeats gone. */
export function originsFromText(text: string): string[] {
  const origins = text
    .split('\n')
    .map((line) => line.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  return [...new Set(origins)];
}

export const originsToText = (origins: readonly string[]) => origins.join('\n');
