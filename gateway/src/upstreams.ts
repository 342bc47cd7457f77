import { errorBody, type ErrorBody } from '@asistente/kit';

/** `<NAME>_URL` may list several replicas, comma-separated: requests are spread over them. */
export function parseUpstreams(value: string): string[] {
  return value
    .split(',')
    .map((url) => url.trim().replace(/\/$/, ''))
    .filter(Boolean);
}

const UNAVAILABLE = 'El servicio no está disponible en este momento. Inténtalo de nuevo en unos segundos';

/**
 * What the gateway answers when the service behind a route failed it: the
 * service refused or is down (503), answered nothing in time (504), or broke
 * the exchange (502), never a 500, always in the house shape.
 */
export function upstreamFailure(error: { code?: string; cause?: { code?: string } }, service: string): ErrorBody {
  const codes = `${error.code ?? ''} ${error.cause?.code ?? ''}`;
  const status = /TIMEOUT/.test(codes) ? 504 : /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|EAI_AGAIN/.test(codes) ? 503 : 502;
  const code = status === 504 ? 'UPSTREAM_TIMEOUT' : status === 503 ? 'UPSTREAM_UNAVAILABLE' : 'BAD_GATEWAY';
  return { ...errorBody(status, code, UNAVAILABLE), service } as ErrorBody & { service: string };
}
