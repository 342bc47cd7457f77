import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { useSession } from '../lib/session-state';
import { LoadingScreen } from './LoadingScreen';
import { originPath, originState } from '../lib/origin';

/** Signed-in users only; others go to /login, which remembers where they were heading. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, token, loading } = useSession();
  const [location] = useLocation();
  const search = useSearch();
  if (loading || (token && !user)) return <LoadingScreen />;
  if (!user) return <Redirect to="/login" replace state={originState(location, search)} />;
  return <>{children}</>;
}

/** /login and /register: a signed-in user is sent to the remembered origin, or to /. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  const state: unknown = useHistoryState();
  if (loading) return <LoadingScreen />;
  if (user) return <Redirect to={originPath(state)} replace />;
  return <>{children}</>;
}
