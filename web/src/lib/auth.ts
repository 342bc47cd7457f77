import type { LoginBody, MeResponse, RegisterBody, UpdateProfileBody } from '@asistente/contracts';
import { ApiError } from './errors';
import { getJson, sendJson } from './http';
import { clearSession, endLoading, getToken, saveSession, saveUser, saveWorkspace } from './session-state';
import { toast } from './toasts';
import type { AuthResult, User } from './types';

/** On start: a stored token is checked by fetching the profile; any failure logs out. */
export async function restoreSession(): Promise<void> {
  if (!getToken()) return endLoading();
  try {
    const { user, workspace } = await getJson<MeResponse>('auth/me');
    saveUser(user);
    saveWorkspace(workspace);
  } catch {
    clearSession();
  } finally {
    endLoading();
  }
}

export async function login(credentials: LoginBody): Promise<void> {
  const { user, token, workspace } = await sendJson<AuthResult>('post', 'auth/login', credentials);
  saveSession(user, token, workspace);
  toast.success('¡Bienvenido!');
}

export async function register(registration: RegisterBody): Promise<void> {
  const { user, token, workspace } = await sendJson<AuthResult>('post', 'auth/register', registration);
  saveSession(user, token, workspace);
  toast.success('¡Cuenta creada!');
}

/** Ends the session at once; the server-side revocation follows in the background. */
export function logout(): void {
  const token = getToken();
  clearSession();
  toast.success('Sesión cerrada');
  if (token) {
    // keepalive: the revocation must reach the server even if the page navigates away meanwhile.
    fetch('/api/auth/logout', { method: 'POST', keepalive: true, headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
  }
}

export async function updateProfile(changes: UpdateProfileBody): Promise<void> {
  const { user } = await sendJson<{ user: User }>('put', 'auth/me', changes);
  saveUser(user);
}

export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  try {
    await sendJson<{ success: boolean }>('put', 'auth/password', { currentPassword, newPassword }, { keepSessionOn401: true });
  } catch (err) {
    // A 401 here usually means a wrong current password; re-checking the profile tells it apart
    // from a revoked session (that check applies the 401 rule).
    if (err instanceof ApiError && err.status === 401) await getJson('auth/me').catch(() => undefined);
    throw err;
  }
}
