import { useCallback, useState } from 'react';
import { CONVERSATIONS_PAGE_SIZE } from '@asistente/contracts';
import { useDocumentTitle } from '../../lib/document-title';
import { useSession } from '../../lib/session-state';
import { PageHeader } from '../../ui/PageHeader';
import { Pagination } from '../../ui/Pagination';
import type { InboxConversation } from './api';
import { AvailabilitySwitch } from './AvailabilitySwitch';
import { ConversationList } from './ConversationList';
import { InboxFilters } from './InboxFilters';
import { activeTabId, InboxTabs, TAB_PANEL_ID } from './InboxTabs';
import { ThreadPane } from './ThreadPane';
import { useInbox } from './use-inbox';
import { useInboxRefresh } from './use-inbox-refresh';
import { useMembers } from './use-members';
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

  // The tab's title counts the conversations waiting to be read in the list on screen (the open one is being read).
  const unread = inbox.rows?.filter((c) => c.unread > 0 && c.id !== openId).length ?? 0;
  useDocumentTitle(unread > 0 ? `(${unread}) Conversaciones` : 'Conversaciones');

  const { refresh: refreshList, patch } = inbox;
  const { refresh: refreshThread } = thread;
  useInboxRefresh(useCallback(() => Promise.all([refreshList(), refreshThread()]), [refreshList, refreshThread]));

  const open = (c: InboxConversation) => {
    setOpenId(c.id);
    patch({ id: c.id, unread: 0 });
  };
  const changed = (c: InboxConversation) => {
    patch(c);
    // The tabs' counts (and maybe the list's filter) moved with it.
    void refreshList();
  };

  const rows = inbox.rows;
  return (
    <div className="inbox-page">
      <PageHeader
        title="Conversaciones"
        subtitle="La bandeja compartida del equipo: asigna, responde y deja notas"
        actions={<AvailabilitySwitch available={members.available} saving={members.saving} onChange={(a) => void members.setAvailable(a)} />}
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
            {rows && rows.length > 0 && <ConversationList rows={rows} selectedId={openId} nameOf={members.nameOf} onOpen={open} />}
            {inbox.total > CONVERSATIONS_PAGE_SIZE && (
              <Pagination page={inbox.page} pageSize={CONVERSATIONS_PAGE_SIZE} total={inbox.total} onPage={inbox.setPage} />
            )}
          </div>
        </section>
        {openId ? (
          <ThreadPane thread={thread} members={members} myId={myId} onBack={() => setOpenId(null)} onChanged={changed} />
        ) : (
          <section className="card inbox-thread inbox-thread-empty" aria-label="Conversación">
            <p className="muted">Elige una conversación para leerla y responder.</p>
          </section>
        )}
      </div>
    </div>
  );
}
