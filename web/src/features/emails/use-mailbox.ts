import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { useDebounced } from '../../lib/use-debounced';
import { getEmail, listEmails, markRead, type EmailDetail, type EmailList, type MailFolder } from './api';

export interface Mailbox {
  folder: MailFolder;
  setFolder: (folder: MailFolder) => void;
  search: string;
  setSearch: (search: string) => void;
  list: EmailList | null;
  /** The list could not load: said on screen, never an empty list shown as true. */
  listError: string | null;
  reload: () => void;
  selected: EmailDetail | null;
  selectedError: string | null;
  open: (id: string, images?: boolean) => void;
  close: () => void;
  /** A message left this folder (deleted, moved). */
  drop: (id: string) => void;
}

/** The folder's list (50 at a time, searchable) and the open mail; opening an unread mail marks it read. */
export function useMailbox(): Mailbox {
  const [folder, setFolderState] = useState<MailFolder>('inbox');
  const [search, setSearch] = useState('');
  const query = useDebounced(search, 300);
  const [list, setList] = useState<EmailList | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [selected, setSelected] = useState<EmailDetail | null>(null);
  const [selectedError, setSelectedError] = useState<string | null>(null);
  const opening = useRef<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    listEmails(folder, query, controller.signal).then(
      (loaded) => {
        setList(loaded);
        setListError(null);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        console.error('No se pudieron cargar los correos', err);
        setListError(`No se pudieron cargar los correos: ${errorMessage(err)}`);
      },
    );
    return () => controller.abort();
  }, [folder, query, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);

  const setFolder = useCallback((next: MailFolder) => {
    setFolderState(next);
    setList(null);
    setSelected(null);
  }, []);

  const open = useCallback((id: string, images = false) => {
    opening.current = id;
    setSelectedError(null);
    getEmail(id, images).then(
      (detail) => {
        if (opening.current !== id) return;
        setSelected(detail);
        if (detail.isRead) return;
        markRead(id).then(
          () => {
            setSelected((current) => (current?.id === id ? { ...current, isRead: true } : current));
            setList((current) => {
              if (!current) return current;
              const wasUnread = current.data.some((m) => m.id === id && !m.isRead);
              return {
                ...current,
                data: current.data.map((m) => (m.id === id ? { ...m, isRead: true } : m)),
                unread: wasUnread && detail.folder === 'inbox' ? Math.max(0, current.unread - 1) : current.unread,
              };
            });
          },
          (err: unknown) => console.error('No se pudo marcar como leído', err),
        );
      },
      (err: unknown) => {
        console.error('No se pudo abrir el correo', err);
        if (opening.current === id) setSelectedError(`No se pudo abrir el correo: ${errorMessage(err)}`);
      },
    );
  }, []);

  const close = useCallback(() => {
    opening.current = null;
    setSelected(null);
    setSelectedError(null);
  }, []);

  const drop = useCallback((id: string) => {
    setList((current) => {
      if (!current) return current;
      const gone = current.data.find((m) => m.id === id);
      return {
        ...current,
        data: current.data.filter((m) => m.id !== id),
        pagination: { ...current.pagination, total: Math.max(0, current.pagination.total - 1) },
        unread: gone && !gone.isRead && folder === 'inbox' ? Math.max(0, current.unread - 1) : current.unread,
      };
    });
    setSelected((current) => (current?.id === id ? null : current));
  }, [folder]);

  return { folder, setFolder, search, setSearch, list, listError, reload, selected, selectedError, open, close, drop };
}
