import { atom, getDefaultStore, useAtomValue } from 'jotai';
import type { Workspace } from '@asistente/contracts';
import type { User } from './types';

const TOKEN_KEY = 'token';
const USER_KEY = 'user';

function readUser(): User | null {
  const raw = localStorage.getItem(USER_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as User;
  } catch {
    return null;
  }
}

const store = getDefaultStore();
const initialToken = localStorage.getItem(TOKEN_KEY);
const tokenAtom = atom<string | null>(initialToken);
// A user without a token is a half-cleared session: it counts as signed out.
const userAtom = atom<User | null>(initialToken ? readUser() : null);
// Not stored: read afresh from /auth/me at every load, so a role changed meanwhile is never shown stale.
const workspaceAtom = atom<Workspace | null>(null);
// On when a stored token still has to be checked against the server.
const loadingAtom = atom(initialToken !== null);

export function getToken(): string | null {
  return store.get(tokenAtom);
}

export function saveSession(user: User, token: string, workspace: Workspace): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  store.set(tokenAtom, token);
  store.set(userAtom, user);
  store.set(workspaceAtom, workspace);
}

/** The workspace this session acts in, with the person's role there (from /auth/me, or after a rename). */
export function saveWorkspace(workspace: Workspace): void {
  store.set(workspaceAtom, workspace);
}

export function getWorkspace(): Workspace | null {
  return store.get(workspaceAtom);
}

export function saveUser(user: User): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  store.set(userAtom, user);
}

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  store.set(tokenAtom, null);
  store.set(userAtom, null);
  store.set(workspaceAtom, null);
}

/**
 * The account is being deleted: its token works nowhere any more and is forgotten, while the screen (and
 * the user shown on it) stays to follow the erasure; a request refused meanwhile ends nothing early, since
 * the 401 rule only acts on a session with a token. `clearSession` finishes the job.
 */
export function forgetToken(): void {
  localStorage.removeItem(TOKEN_KEY);
  store.set(tokenAtom, null);
}

export function endLoading(): void {
  store.set(loadingAtom, false);
}

export interface Session {
  user: User | null;
  token: string | null;
  /** Null while unknown (signed out, or the stored token not checked yet). */
  workspace: Workspace | null;
  loading: boolean;
}

export function useSession(): Session {
  return {
    user: useAtomValue(userAtom),
    token: useAtomValue(tokenAtom),
    workspace: useAtomValue(workspaceAtom),
    loading: useAtomValue(loadingAtom),
  };
}
