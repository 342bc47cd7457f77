import type { WidgetBody, WidgetPatch, WidgetSettings } from '@asistente/contracts';
import { getJsonIfAvailable, sendJson } from '../../lib/http';

/** The owner's chat web, or null while none was created (the server's 404). */
export const fetchWidget = () => getJsonIfAvailable<WidgetSettings>('widget');
export const createWidget = (body: WidgetBody) => sendJson<WidgetSettings>('post', 'widget', body);
export const updateWidget = (patch: WidgetPatch) => sendJson<WidgetSettings>('patch', 'widget', patch);
