import type { WidgetBody, WidgetPatch, WidgetSettings } from '@asistente/contracts';
import { getJsonIfAvailable, sendJson } from '../../lib/http';

/** The owner's chat web, or null while none was created (the server's 404). */
export const fetchWidget = () => getJsonIfAvailable<WidgetSettings>('widget');
export const createWidget = (body: WidgetBody) => sendJson<WidgetSettings>('post', 'widget', body);
export const updateWidget = (patch: WidgetPatch) => sendJson<WidgetSettings>('patch', 'widget', patch);

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
