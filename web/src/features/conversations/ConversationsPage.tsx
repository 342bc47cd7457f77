import { useCallback, useEffect, useState } from 'react';
import { CONVERSATIONS_PAGE_SIZE } from '@asistente/contracts';
import { useDocumentTitle } from '../../lib/document-title';
import { useSession } from '../../lib/session-state';
import { PageHeader } from '../../ui/PageHeader';
import { Pagination } from '../../ui/Pagination';
import { updateConversation, type InboxConversation } from './api';
import { AvailabilitySwitch } from './AvailabilitySwitch';
import { ConversationList } from './ConversationList';
import { InboxFilters } from './InboxFilters';
import { activeTabId, InboxTabs, TAB_PANEL_ID } from './InboxTabs';
import { MentionsMenu } from './MentionsMenu';
import { NoticesToggle } from './NoticesToggle';
import { ThreadPane } from './ThreadPane';
import { useBrowserNotices } from './use-browser-notices';
import { useInbox } from './use-inbox';
import { useInboxAlerts } from './use-inbox-alerts';
import { useInboxLive } from './use-inbox-live';
import { useMembers } from './use-members';
import { useMentions } from './use-mentions';
import { usePresence } from './use-presence';
import { useThread } from './use-thread';
import './conversations.css';

/**
 * Conversaciones: the team's shared inbox. The list (tabs by assignee, a status filter, search) beside the
 * open thread on a laptop; on a phone the list, then the thread with a way back.
 */
export function ConversationsPage() {
  const { user } = useSession();
  const myId = user?.id ?? '';
  const inbox = useInbox();
  const members = useMembers(myId);
  const [openId, setOpenId] = useState<string | null>(null);
  const thread = useThread(openId);

  const mentions = useMentions();
  const notices = useBrowserNotices();

  // The tab's title counts the conversations with unread messages under the status filter (the server's count).
  const unread = inbox.counts?.unread ?? 0;
  useDocumentTitle(unread > 0 ? `(${unread}) Conversaciones` : 'Conversaciones');

  const { refresh: refreshList, patch } = inbox;
  const { refresh: refreshThread } = thread;
  const { refresh: refreshMentions, seenIn } = mentions;

  const openById = useCallback(
    (id: string) => {
      setOpenId(id);
      patch({ id, unread: 0 });
      seenIn(id);
    },
    [patch, seenIn],
  );
  const alerts = useInboxAlerts({ enabled: notices.state === 'on', myId, mentions: mentions.list, open: openById });
  const { check: checkAssigned } = alerts;

  const refreshChanged = useCallback(
    async (ids: ReadonlySet<string> | null) => {
      // The open thread first: reading it marks it read, so the counts read after it no longer count it.
      if (openId && (ids === null || ids.has(openId))) await refreshThread();
      await Promise.all([refreshList(), refreshMentions(), checkAssigned()]);
    },
    [openId, refreshThread, refreshList, refreshMentions, checkAssigned],
  );
  // `presence` is only read when an event arrives, after this render has declared it.
  const live = useInboxLive({ changed: refreshChanged, presence: (p) => presence.heard(p) });
  const presence = usePresence(openId, myId, live);

  // Opened (read on the server, its mentions seen): the tabs' counts and «Menciones» say so, once per opening
  // (not again when the list's filters change, which reloads the list anyway).
  const readId = thread.conversation?.id;
  useEffect(() => {
    if (!readId) return;
    void refreshList();
    void refreshMentions();
  }, [readId]);

  const changed = (c: InboxConversation) => {
    patch(c);
    // The tabs' counts (and maybe the list's filter) moved with it.
    void refreshList();
  };

  const rows = inbox.rows;
  return (
    // `data-live`: whether the live stream is connected (the browser test waits for it).
    <div className="inbox-page" data-live={live ? 'on' : 'off'}>
      <PageHeader
        title="Conversaciones"
        subtitle="La bandeja compartida del equipo: asigna, responde y deja notas"
        actions={
          <>
            <MentionsMenu mentions={mentions.list} unseen={mentions.unseen} onOpen={openById} />
            <NoticesToggle notices={notices} />
            <AvailabilitySwitch available={members.available} saving={members.saving} onChange={(a) => void members.setAvailable(a)} />
          </>
        }
      />
      <div className={openId ? 'inbox-layout has-thread' : 'inbox-layout'}>
        <section className="card inbox-list-pane" aria-label="Lista de conversaciones">
          <InboxTabs tab={inbox.tab} counts={inbox.counts} onTab={inbox.setTab} />
          <div role="tabpanel" id={TAB_PANEL_ID} aria-labelledby={activeTabId(inbox.tab)}>
            <InboxFilters status={inbox.status} onStatus={inbox.setStatus} search={inbox.search} onSearch={inbox.setSearch} />
            {inbox.failed && (
              <p className="alert-warning" role="alert">
                No se pudieron cargar las conversaciones. Se reintentará en unos segundos.
              </p>
            )}
            {rows === null && !inbox.failed && (
              <p className="muted" role="status">
                Cargando...
              </p>
            )}
            {rows?.length === 0 && (
              <p className="muted inbox-empty">
                {inbox.search.trim()
                  ? 'Ninguna conversación coincide con la búsqueda.'
                  : 'No hay conversaciones en esta vista. Los mensajes de WhatsApp de tus clientes llegan aquí.'}
              </p>
            )}
            {rows && rows.length > 0 && <ConversationList rows={rows} selectedId={openId} nameOf={members.nameOf} onOpen={(c) => openById(c.id)} />}
            {inbox.total > CONVERSATIONS_PAGE_SIZE && (
              <Pagination page={inbox.page} pageSize={CONVERSATIONS_PAGE_SIZE} total={inbox.total} onPage={inbox.setPage} />
            )}
          </div>
        </section>
        {openId ? (
          <ThreadPane
            thread={thread}
            members={members}
            myId={myId}
            presence={presence}
            onBack={() => setOpenId(null)}
            update={(id, body) => alerts.mine(id, body, () => updateConversation(id, body))}
            onChanged={changed}
          />
        ) : (
          <section className="card inbox-thread inbox-thread-empty" aria-label="Conversación">
            <p className="muted">Elige una conversación para leerla y responder.</p>
          </section>
        )}
      </div>
    </div>
  );
}
