import type { App } from '@asistente/kit';
import { oauthCookie, signToken } from '@asistente/kit/testing';
import type { GooglePeer } from './google-peer.js';

/**
 * Goes through the whole consent as a browser would: the service's authorization URL (and its cookie), the
 * peer's immediate consent (a 302 back with code and state), then the public callback with that cookie.
 * Answers the user's bearer header.
 */
export async function connectGoogle(app: App, peer: GooglePeer, email: string): Promise<{ userId: string; authorization: string; landing: string }> {
  const user = signToken(app);
  peer.addAccount(email, [{ id: `equipo-${email}`, summary: 'Equipo', backgroundColor: '#16a765', accessRole: 'writer' }]);
  const redirect = await app.inject({ url: '/google/redirect', headers: { authorization: user.authorization } });
  if (redirect.statusCode !== 200) throw new Error(`redirect answered ${redirect.statusCode}: ${redirect.body}`);
  const consent = await fetch(redirect.json<{ url: string }>().url, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location') ?? '');
  // The same browser comes back: it presents the cookie the redirect answer set.
  const cookie = oauthCookie(redirect.headers['set-cookie']);
  const callback = await app.inject({ url: `${back.pathname.replace(/^\/api/, '')}${back.search}`, headers: { cookie } });
  return { userId: user.userId, authorization: user.authorization, landing: callback.headers.location as string };
}
