import { badRequest, HostNotAllowedError, type HostGuard } from '@asistente/kit';

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
    throw badRequest('La URL no es válida', 'WEBHOOK_URL_INVALID');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest('La URL debe empezar por https://', 'WEBHOOK_URL_INVALID');
  if (url.username || url.password) throw badRequest('La URL no puede llevar usuario ni contraseña', 'WEBHOOK_URL_INVALID');
  let plaintextAllowed: boolean;
  try {
    ({ plaintextAllowed } = await guard.check(url.hostname));
  } catch (error) {
    if (error instanceof HostNotAllowedError) throw error;
    throw badRequest('No se encontró el servidor de esa URL', 'WEBHOOK_HOST_NOT_FOUND');
  }
  if (url.protocol === 'http:' && !plaintextAllowed) throw badRequest('La URL debe usar https://', 'WEBHOOK_URL_NOT_HTTPS');
  url.hash = '';
  return url.toString();
}
