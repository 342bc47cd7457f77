// The floors' token check: the bearer token's subject as `verify` (a fast-jwt verifier) accepts it, or a 401 sent.
export function tokenSubject(request, reply, verify) {
  const [scheme, token] = (request.headers.authorization ?? '').split(' ');
  try {
    if (!/^bearer$/i.test(scheme ?? '') || !token) throw new Error('no token');
    return verify(token).sub;
  } catch {
    void reply.code(401).send({ statusCode: 401, code: 'UNAUTHORIZED', error: 'Unauthorized', message: 'Sesión no válida' });
    return undefined;
  }
}
