import { WEBHOOK_URL_RULE } from '@asistente/contracts';
import { badRequest, HostNotAllowedError, type HostGuard } from '@asistente/kit';

export const PORT_OUT_OF_RANGE = 'El puerto de la URL debe estar entre 1 y 65535';

/** The authority's port as typed (`host:port` before the path), when its digits name a number past 65535. */
function typedPortOutOfRange(typed: string): boolean {
  const port = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(?:\[[^\]]*\]|[^/?#:]*):(\d+)(?:[/?#]|$)/i.exec(typed)?.[1];
  return port !== undefined && Number(port) > 65_535;
}

/**
 * A URL an owner typed, checked before it is saved: https (plain http only to an address the operator
 * allowed), no credentials in it, and a host the kit's guard lets us reach. The same guard runs again on
 * every delivery, since a name can be pointed elsewhere after it was saved.
 */
export async function checkEndpointUrl(guard: HostGuard, typed: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(typed.trim());
  } catch {
    // The URL parser refuses a port past 65535 as it refuses any broken URL: the owner is told which part.
    if (typedPortOutOfRange(typed.trim())) throw badRequest(PORT_OUT_OF_RANGE, 'WEBHOOK_URL_PORT');
    throw badRequest('La URL no es válida', 'WEBHOOK_URL_INVALID');
  }
  // Port 0 parses, but nothing listens there: a delivery would only ever fail.
  if (url.port === '0') throw badRequest(PORT_OUT_OF_RANGE, 'WEBHOOK_URL_PORT');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest(`La URL no es válida. ${WEBHOOK_URL_RULE}`, 'WEBHOOK_URL_INVALID');
  if (url.username || url.password) throw badRequest('La URL no puede llevar usuario ni contraseña', 'WEBHOOK_URL_INVALID');
  let plaintextAllowed: boolean;
  try {
    ({ plaintextAllowed } = await guard.check(url.hostname));
  } catch (error) {
    if (error instanceof HostNotAllowedError) throw error;
    throw badRequest('No se encontró el servidor de esa URL', 'WEBHOOK_HOST_NOT_FOUND');
  }
  if (url.protocol === 'http:' && !plaintextAllowed) throw badRequest(`Esta URL debe usar https://. ${WEBHOOK_URL_RULE}`, 'WEBHOOK_URL_NOT_HTTPS');
  url.hash = '';
  return url.toString();
}
