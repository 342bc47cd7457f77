import { useEffect } from 'react';
import { atom, getDefaultStore, useAtomValue } from 'jotai';
import type { Workspace, WorkspaceList } from '@asistente/contracts';
import { getJson, sendJson } from './http';
import { getWorkspace, saveSession, saveWorkspace, useSession } from './session-state';
import type { AuthResult } from './types';

export const fetchCurrentWorkspace = () => getJson<Workspace>('workspace');

/**
 * A session in another workspace (switched to, or joined by invitation): every screen's data so far was the
 * previous workspace's, so the app starts again from the dashboard with a full load.
 */
export function enterWorkspace({ user, token, workspace }: AuthResult): void {
  saveSession(user, token, workspace);
  window.location.assign('/');
}

export async function switchWorkspace(workspaceId: string): Promise<void> {
  enterWorkspace(await sendJson<AuthResult>('post', 'auth/switch', { workspaceId }));
}

/** The person's workspaces and the one this session acts in. */
export interface WorkspaceChoice {
  workspaces: WorkspaceList;
  currentId: string;
}

const store = getDefaultStore();
/** Kept with the session token it was read for: another person signing in on this page never sees it. */
const choiceAtom = atom<{ token: string; choice: WorkspaceChoice } | null>(null);

async function loadChoice(token: string): Promise<void> {
  const workspaces = await getJson<WorkspaceList>('auth/workspaces');
  // One workspace is no choice: nothing more to ask.
  if (workspaces.length < 2) return;
  const current = await fetchCurrentWorkspace();
  store.set(choiceAtom, { token, choice: { workspaces, currentId: current.id } });
}

/** Null while unknown, or when the person has only one workspace. */
export function useWorkspaceChoice(): WorkspaceChoice | null {
  const { token } = useSession();
  const loaded = useAtomValue(choiceAtom);
  const known = loaded !== null && loaded.token === token;
  useEffect(() => {
    if (!token || known) return;
    loadChoice(token).catch((err: unknown) => console.error('No se pudieron cargar los espacios de trabajo', err));
    // Asked once per session: a switch or a joined workspace reloads the page.
  }, [token, known]);
  return known ? loaded.choice : null;
}

/** A rename shown at once wherever the workspace is named (the sidebar's business name, the switcher). */
export function workspaceRenamed(renamed: Workspace): void {
  // The rename's answer carries the renamer's role: this very session's.
  if (getWorkspace()?.id === renamed.id) saveWorkspace(renamed);
  const loaded = store.get(choiceAtom);
  if (!loaded) return;
  const workspaces = loaded.choice.workspaces.map((w) => (w.id === renamed.id ? { ...w, name: renamed.name } : w));
  store.set(choiceAtom, { ...loaded, choice: { ...loaded.choice, workspaces } });
}
