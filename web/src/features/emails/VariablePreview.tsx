import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { useDebounced } from '../../lib/use-debounced';
import { previewEmail, type EmailPreview } from './api';

interface VariablePreviewProps {
  to: string;
  subject: string;
  body: string;
}

type State = { kind: 'loading' } | { kind: 'ready'; preview: EmailPreview } | { kind: 'failed'; message: string };

/**
 * What the first recipient would get, asked of the server for the text and recipients as they are now: a
 * changed recipient clears the preview at once, so it never shows the previous customer's name. The send
 * fills every recipient again on the server.
 */
export function VariablePreview({ to, subject, body }: VariablePreviewProps) {
  const written = JSON.stringify([to, subject, body]);
  const settled = useDebounced(written, 300);
  const [state, setState] = useState<{ for: string; state: State }>({ for: '', state: { kind: 'loading' } });
  const recipients = to.split(/[,;]/).map((e) => e.trim()).filter(Boolean).length;

  useEffect(() => {
    const [sTo, sSubject, sBody] = JSON.parse(settled) as [string, string, string];
    const controller = new AbortController();
    previewEmail({ to: sTo, subject: sSubject, body: sBody }, controller.signal).then(
      (preview) => setState({ for: settled, state: { kind: 'ready', preview } }),
      (err: unknown) => {
        if (!controller.signal.aborted) setState({ for: settled, state: { kind: 'failed', message: `No se pudo preparar la vista previa: ${errorMessage(err)}` } });
      },
    );
    return () => controller.abort();
  }, [settled]);

  // Shown only for what is written now: anything older waits for its own answer.
  const current: State = state.for === written ? state.state : { kind: 'loading' };
  return (
    <section className="mail-preview" aria-label="Vista previa">
      <p className="mail-preview-title">
        {current.kind === 'ready' && current.preview.recipient ? `Vista previa para ${current.preview.recipient}` : 'Vista previa'}
      </p>
      {recipients > 1 && <p className="field-hint">Se enviará un correo a cada destinatario, con sus propios datos.</p>}
      {current.kind === 'loading' && <p className="muted">Preparando vista previa...</p>}
      {current.kind === 'failed' && <p className="field-error">{current.message}</p>}
      {current.kind === 'ready' && (
        <>
          {!current.preview.recipient && <p className="field-hint">Escribe un destinatario para ver cómo le llegará. Las variables se rellenan con los datos de cada destinatario al enviar.</p>}
          {current.preview.recipient && !current.preview.contactFound && <p className="field-hint">Este destinatario no está en tus contactos.</p>}
          <p className="mail-preview-subject">
            <strong>Asunto:</strong> {current.preview.subject}
          </p>
          <p className="mail-preview-body">{current.preview.body}</p>
          {current.preview.recipient && current.preview.unresolved.length > 0 && (
            <p className="field-error">Sin completar para este destinatario: {current.preview.unresolved.join(', ')}</p>
          )}
        </>
      )}
    </section>
  );
}
