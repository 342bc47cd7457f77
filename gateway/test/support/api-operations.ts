import { API_PREFIX, isPublic, routeFor } from '../../src/routing-table.js';

/** A value for each path parameter of the API document, by its name; any other (an id) gets `id`. */
const PARAMS: Record<string, string> = { jid: '34600000000@s.whatsapp.net', provider: 'gmail', calendarId: 'primary', year: '2026', month: '11', mac: 'x' };

/** A path of the document with its parameters filled (`/contacts/{id}` → `/contacts/<id>`). */
export function filledPath(path: string, id: () => string): string {
  return path.replace(/\{(\w+)\}/g, (_whole, name: string) => PARAMS[name] ?? id());
}

/**
 * Every operation of the API document that needs a token (a service owns its path and it is not public),
 * as a method and a path below /api with its parameters filled: what the sweep tests try.
 */
export function tokenOperations(paths: Record<string, Record<string, unknown>>, id: () => string): { method: string; rest: string }[] {
  return Object.entries(paths).flatMap(([path, ops]) => {
    if (!path.startsWith(`${API_PREFIX}/`)) return [];
    const rest = filledPath(path.slice(API_PREFIX.length), id);
    const route = routeFor(rest);
    if (!route) return [];
    return Object.keys(ops)
      .map((method) => method.toUpperCase())
      .filter((method) => !isPublic(route, method, rest))
      .map((method) => ({ method, rest }));
  });
}
