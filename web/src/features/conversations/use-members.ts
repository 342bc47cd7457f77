import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { getMembers, setAvailability, type InboxMember } from './api';

export interface Members {
  /** Null until loaded (or when they could not load: the selector then offers only what is assigned). */
  list: InboxMember[] | null;
  nameOf: (userId: string | null) => string | null;
  /** Whether the signed-in member is «Disponible»; null until known. */
  available: boolean | null;
  saving: boolean;
  setAvailable: (available: boolean) => Promise<void>;
  reload: () => void;
}

/** The members who work the inbox (for the assignee selector and the names), and my own availability. */
export function useMembers(myId: string): Members {
  const [list, setList] = useState<InboxMember[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    getMembers().then(
      (members) => live && setList(members),
      (err: unknown) => console.error('No se pudieron cargar los miembros', err),
    );
    return () => {
      live = false;
    };
  }, [version]);

  const setAvailable = async (available: boolean) => {
    setSaving(true);
    try {
      await setAvailability(available);
      setList((members) => members?.map((m) => (m.userId === myId ? { ...m, available } : m)) ?? null);
      toast.success(available ? 'Ahora estás disponible' : 'Ahora estás ausente: la asignación automática no te dará conversaciones nuevas');
    } catch (err) {
      toast.error(`No se pudo cambiar tu estado: ${errorMessage(err)}`);
    } finally {
      setSaving(false);
    }
  };

  const nameOf = (userId: string | null) => (userId ? (list?.find((m) => m.userId === userId)?.name ?? null) : null);
  const me = list?.find((m) => m.userId === myId);
  return { list, nameOf, available: me ? me.available : null, saving, setAvailable, reload: useCallback(() => setVersion((v) => v + 1), []) };
}
