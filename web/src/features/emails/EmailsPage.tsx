import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { PageHeader } from '../../ui/PageHeader';
import { AccountCards } from './AccountCards';
import { listTemplates, removeEmail, type EmailTemplate } from './api';
import { ComposeModal, type ComposeMode } from './ComposeModal';
import './emails.css';
import { FOLDER_LABELS } from './format';
import { ImapModal } from './ImapModal';
import { MailSidebar } from './MailSidebar';
import { MessageList } from './MessageList';
import { ReadingPane } from './ReadingPane';
import { TemplateModal } from './TemplateModal';
import { syncStatus } from './sync-status';
import { useAccounts } from './use-accounts';
import { useMailbox } from './use-mailbox';

export function EmailsPage() {
  const mailbox = useMailbox();
  const accounts = useAccounts();
  const [templates, setTemplates] = useState<EmailTemplate[] | null>(null);
  const [templatesVersion, setTemplatesVersion] = useState(0);
  const [compose, setCompose] = useState<ComposeMode | null>(null);
  const [imapOpen, setImapOpen] = useState(false);
  const [templateOpen, setTemplateOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { reload: reloadAccounts } = accounts;
  const { reload: reloadList } = mailbox;

  const afterConnect = useCallback(() => {
    reloadAccounts();
    reloadList();
  }, [reloadAccounts, reloadList]);

  useEffect(() => {
    let current = true;
    listTemplates().then(
      (loaded) => current && setTemplates(loaded),
      (err: unknown) => {
        console.error('No se pudieron cargar las plantillas', err);
        if (current) setTemplates([]);
      },
    );
    return () => {
      current = false;
    };
  }, [templatesVersion]);

  // New mail arrives on the server by itself (IDLE): the open folder refreshes while the page is shown.
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reloadList();
    }, 15_000);
    return () => clearInterval(timer);
  }, [reloadList]);

  // A first sync: its progress is read every 1.5 s and the folder shows mails as they are stored.
  const syncing = syncStatus(accounts.accounts);
  const isSyncing = syncing !== null;
  useEffect(() => {
    if (!isSyncing) return;
    const timer = setInterval(() => {
      reloadAccounts();
      reloadList();
    }, 1500);
    return () => {
      clearInterval(timer);
      // The last of it, once the sync ended.
      reloadList();
    };
  }, [isSyncing, reloadAccounts, reloadList]);

  const selected = mailbox.selected;
  const remove = async () => {
    if (!selected) return;
    setDeleting(true);
    try {
      await removeEmail(selected.id);
      toast.success(selected.folder === 'trash' ? 'Correo eliminado definitivamente' : 'Correo movido a la papelera');
      mailbox.drop(selected.id);
    } catch (err) {
      toast.error(`No se pudo eliminar el correo: ${errorMessage(err)}`);
    } finally {
      setDeleting(false);
      setConfirmDelete(false);
    }
  };

  const noAccount = accounts.accounts !== null && accounts.accounts.length === 0;

  return (
    <>
      <PageHeader title="Correos" subtitle="Tu correo de Gmail, Outlook o IMAP/SMTP, con plantillas y seguimiento" />
      <AccountCards
        accounts={accounts.accounts}
        providers={accounts.providers}
        error={accounts.error}
        onChanged={afterConnect}
        onOpenImap={() => setImapOpen(true)}
      />
      {noAccount && <p className="muted mail-hint">Conecta una cuenta para ver y enviar tu correo.</p>}
      <div className={selected ? 'mail-layout has-selection' : 'mail-layout'}>
        <MailSidebar
          folder={mailbox.folder}
          unread={mailbox.list?.unread ?? null}
          templates={templates}
          onFolder={mailbox.setFolder}
          onCompose={() => setCompose({ kind: 'new' })}
          onTemplate={(template) => setCompose({ kind: 'new', template })}
          onNewTemplate={() => setTemplateOpen(true)}
        />
        <section className="card mail-column" aria-label={FOLDER_LABELS[mailbox.folder]}>
          <div className="field mail-search">
            <label htmlFor="mail-search" className="sr-only">
              Buscar correos
            </label>
            <input id="mail-search" type="search" placeholder="Buscar correos..." value={mailbox.search} onChange={(e) => mailbox.setSearch(e.target.value)} />
          </div>
          <MessageList
            list={mailbox.list}
            error={mailbox.listError}
            selectedId={selected?.id ?? null}
            showRecipient={mailbox.folder === 'sent' || mailbox.folder === 'drafts'}
            syncing={syncing}
            onOpen={(id) => mailbox.open(id)}
          />
        </section>
        <section className="card mail-pane" aria-label="Lectura">
          {mailbox.selectedError && (
            <p className="alert-warning" role="alert">
              {mailbox.selectedError}
            </p>
          )}
          {selected ? (
            <ReadingPane
              email={selected}
              deleting={deleting}
              onBack={mailbox.close}
              onReply={() => setCompose({ kind: 'reply', email: selected })}
              onForward={() => setCompose({ kind: 'forward', email: selected })}
              onEditDraft={() => setCompose({ kind: 'new', draft: selected })}
              onDelete={() => setConfirmDelete(true)}
              onShowImages={() => mailbox.open(selected.id, true)}
            />
          ) : (
            !mailbox.selectedError && <p className="muted mail-empty">Selecciona un correo para leerlo</p>
          )}
        </section>
      </div>
      {compose && (
        <ComposeModal
          mode={compose}
          templates={templates ?? []}
          accounts={accounts.accounts ?? []}
          onClose={() => setCompose(null)}
          onDraftSaved={reloadList}
          onSent={() => {
            setCompose(null);
            reloadList();
          }}
        />
      )}
      {imapOpen && (
        <ImapModal
          onClose={() => setImapOpen(false)}
          onConnected={(account) => {
            setImapOpen(false);
            accounts.add(account);
            afterConnect();
          }}
        />
      )}
      {templateOpen && (
        <TemplateModal
          onClose={() => setTemplateOpen(false)}
          onSaved={() => {
            setTemplateOpen(false);
            setTemplatesVersion((v) => v + 1);
          }}
        />
      )}
      {confirmDelete && selected && (
        <ConfirmDialog
          title="Eliminar correo"
          message={selected.folder === 'trash' ? '¿Eliminar este correo definitivamente?' : '¿Mover este correo a la papelera?'}
          confirmLabel="Eliminar"
          busy={deleting}
          onConfirm={() => void remove()}
          onCancel={() => setConfirmDelete(false)}
        />
      )}
    </>
  );
}
