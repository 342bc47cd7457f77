import { Button } from '../../ui/Button';
import { MAIL_FOLDERS_ORDER } from './folders';
import { TEMPLATES_SHOWN, type EmailTemplate, type MailFolder } from './api';
import { FOLDER_LABELS } from './format';

interface MailSidebarProps {
  folder: MailFolder;
  unread: number | null;
  templates: EmailTemplate[] | null;
  onFolder: (folder: MailFolder) => void;
  onCompose: () => void;
  onTemplate: (template: EmailTemplate) => void;
  onNewTemplate: () => void;
}

/** Spec: folders with the unread count on inbox only, and the first 5 templates. */
export function MailSidebar({ folder, unread, templates, onFolder, onCompose, onTemplate, onNewTemplate }: MailSidebarProps) {
  return (
    <aside className="mail-sidebar">
      <Button onClick={onCompose}>Redactar Correo</Button>
      <nav aria-label="Carpetas">
        <ul className="mail-folders">
          {MAIL_FOLDERS_ORDER.map((f) => (
            <li key={f}>
              <button type="button" className={f === folder ? 'mail-folder is-active' : 'mail-folder'} aria-current={f === folder ? 'page' : undefined} onClick={() => onFolder(f)}>
                <span>{FOLDER_LABELS[f]}</span>
                {f === 'inbox' && unread !== null && unread > 0 && (
                  <span className="mail-unread" aria-label={`${unread} sin leer`}>
                    {unread}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="mail-templates-title" className="mail-templates">
        <h2 id="mail-templates-title">Plantillas</h2>
        {templates === null ? (
          <p className="muted mail-small">Cargando plantillas...</p>
        ) : templates.length === 0 ? (
          <p className="muted mail-small">Aún no tienes plantillas</p>
        ) : (
          <ul>
            {templates.slice(0, TEMPLATES_SHOWN).map((t) => (
              <li key={t.id}>
                <button type="button" className="mail-template" onClick={() => onTemplate(t)}>
                  {t.name}
                </button>
              </li>
            ))}
          </ul>
        )}
        <Button variant="ghost" small onClick={onNewTemplate}>
          + Nueva plantilla
        </Button>
      </section>
    </aside>
  );
}
