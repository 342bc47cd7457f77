import { useEffect, useRef, useState } from 'react';
import { saveBlob } from '../../lib/download';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { downloadAttachment, type EmailDetail } from './api';
import { formatFullDate, formatSize } from './format';

interface ReadingPaneProps {
  email: EmailDetail;
  onBack: () => void;
  onReply: () => void;
  onForward: () => void;
  /** Drafts: continue writing it in the compose modal. */
  onEditDraft: () => void;
  onDelete: () => void;
  onShowImages: () => void;
  deleting: boolean;
}

// The body was sanitised on the server; the frame is the second wall: no scripts, no same origin, links
// leave in a new tab. A base target and a neutral style make it read like a mail.
const frameDocument = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><base target="_blank"><style>body{font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#111827;margin:0;padding:4px;overflow-wrap:anywhere}img{max-width:100%;height:auto}table{max-width:100%}</style></head><body>${body}</body></html>`;

/** Spec: from, to, date, the HTML body, attachments with name and size; Responder, Reenviar and Eliminar. */
export function ReadingPane({ email, onBack, onReply, onForward, onEditDraft, onDelete, onShowImages, deleting }: ReadingPaneProps) {
  const [downloading, setDownloading] = useState<string | null>(null);
  const article = useRef<HTMLElement>(null);

  // On a phone the open mail replaces the list further down the page: bring it into view.
  useEffect(() => {
    if (window.matchMedia('(max-width: 700px)').matches) article.current?.scrollIntoView({ block: 'start' });
  }, [email.id]);

  const download = async (attachmentId: string, name: string) => {
    setDownloading(attachmentId);
    try {
      const file = await downloadAttachment(email.id, attachmentId);
      saveBlob(file.blob, name);
    } catch (err) {
      toast.error(`No se pudo descargar el adjunto: ${errorMessage(err)}`);
    } finally {
      setDownloading(null);
    }
  };

  return (
    <article ref={article} className="mail-reader" aria-label="Correo abierto">
      <div className="mail-reader-actions">
        <Button variant="ghost" small className="mail-back" onClick={onBack}>
          ← Volver
        </Button>
        {email.folder === 'drafts' && (
          <Button small onClick={onEditDraft}>
            Continuar borrador
          </Button>
        )}
        <Button variant="secondary" small onClick={onReply}>
          Responder
        </Button>
        <Button variant="secondary" small onClick={onForward}>
          Reenviar
        </Button>
        <Button variant="danger" small disabled={deleting} onClick={onDelete}>
          {deleting ? 'Eliminando...' : 'Eliminar'}
        </Button>
      </div>
      <h2 className="mail-reader-subject">{email.subject || '(sin asunto)'}</h2>
      <dl className="mail-reader-meta">
        <dt>De</dt>
        <dd>{email.from}</dd>
        <dt>Para</dt>
        <dd>{email.to}</dd>
        {email.cc && (
          <>
            <dt>CC</dt>
            <dd>{email.cc}</dd>
          </>
        )}
        <dt>Fecha</dt>
        <dd>{formatFullDate(email.createdAt)}</dd>
      </dl>
      {email.remoteImagesBlocked && (
        <p className="mail-images">
          Las imágenes remotas están bloqueadas para proteger tu privacidad.{' '}
          <Button variant="ghost" small onClick={onShowImages}>
            Mostrar imágenes
          </Button>
        </p>
      )}
      {email.partial && (
        <p className="alert-warning">
          Este correo es muy grande: se muestra solo el comienzo del texto. Los adjuntos se descargan del servidor de correo al pulsarlos.
        </p>
      )}
      <iframe className="mail-frame" title="Contenido del correo" sandbox="allow-popups allow-popups-to-escape-sandbox" srcDoc={frameDocument(email.body)} />
      {email.attachments.length > 0 && (
        <section aria-label="Adjuntos" className="mail-attachments">
          <h3>Adjuntos</h3>
          <ul>
            {email.attachments.map((a) => (
              <li key={a.id}>
                <button type="button" className="mail-attachment" disabled={downloading === a.id} onClick={() => void download(a.id, a.name)}>
                  <span>{a.name}</span> <span className="muted">({formatSize(a.size)})</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
