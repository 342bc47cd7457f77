import { useCallback, useEffect, useRef, useState } from 'react';
import type { Workspace, WorkspaceInvitation, WorkspaceMember } from '@asistente/contracts';
import { fetchCurrentWorkspace } from '../../lib/workspaces';
import { fetchInvitations, fetchMembers, teamPermissions } from './team';

/** What the "Equipo" card shows: the workspace with the caller's role, its members and, for those who manage it, its invitations. */
export interface Team {
  workspace: Workspace | null;
  members: WorkspaceMember[] | null;
  failed: boolean;
  /** Null while loading, and for a role that does not see them. */
  invitations: WorkspaceInvitation[] | null;
  invitationsFailed: boolean;
}

const LOADING: Team = { workspace: null, members: null, failed: false, invitations: null, invitationsFailed: false };

export function useTeam() {
  const [team, setTeam] = useState<Team>(LOADING);
  const mounted = useRef(true);
  const update = (change: Partial<Team>) => {
    if (mounted.current) setTeam((current) => ({ ...current, ...change }));
  };

  // The invitations fail alone: the members stay on screen.
  const reloadInvitations = useCallback(async () => {
    try {
      update({ invitations: await fetchInvitations(), invitationsFailed: false });
    } catch (err) {
      console.error('No se pudieron cargar las invitaciones', err);
      update({ invitationsFailed: true });
    }
  }, []);

  const reloadMembers = useCallback(async () => {
    try {
      update({ members: await fetchMembers(), failed: false });
    } catch (err) {
      console.error('No se pudieron cargar los miembros del equipo', err);
      update({ failed: true });
    }
  }, []);

  useEffect(() => {
    mounted.current = true;
    // The role decides whether the invitations are asked for at all: the workspace comes first.
    fetchCurrentWorkspace()
      .then((workspace) => {
        update({ workspace });
        void reloadMembers();
        if (teamPermissions(workspace.role).seeInvitations) void reloadInvitations();
      })
      .catch((err: unknown) => {
        console.error('No se pudo cargar el espacio de trabajo', err);
        update({ failed: true });
      });
    return () => {
      mounted.current = false;
    };
  }, [reloadMembers, reloadInvitations]);

  const renamed = useCallback((workspace: Workspace) => update({ workspace }), []);

  return { team, reloadMembers, reloadInvitations, renamed };
}
