import { useEffect, useState } from 'react';
import type { WidgetBody, WidgetSettings } from '@asistente/contracts';
import { toast } from '../../lib/toasts';
import { CopyableSecret } from '../../ui/CopyableSecret';
import { createWidget, fetchWidget, updateWidget } from './web-widget';
import { WebWidgetForm } from './WebWidgetForm';
import './personal-tokens.css';
import './web-widget.css';

/**
 * Configuración → "Chat web": the chat the owner puts on their website. None yet: the form that creates it.
 * Created: the same fields to change, and the code to paste in the website with its public key.
 */
export function WebWidgetCard() {
  // undefined while loading; null when there is none.
  const [widget, setWidget] = useState<WidgetSettings | null | undefined>(undefined);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    fetchWidget()
      .then((body) => current && setWidget(body))
      .catch((err: unknown) => {
        console.error('No se pudo cargar el chat web', err);
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, []);

  async function save(body: WidgetBody) {
    if (widget) {
      setWidget(await updateWidget(body));
      toast.success('Chat web guardado');
    } else {
      setWidget(await createWidget(body));
      toast.success('Chat web creado: pega el código en tu web');
    }
  }

  return (
    <section className="card web-widget" aria-labelledby="chat-web">
      <h2 id="chat-web" className="card-title">
        Chat web
      </h2>
      <p className="muted">
        Un chat en tu web: lo que escriben tus visitantes llega a Conversaciones, donde tu equipo responde.
      </p>
      {failed && <p role="alert">No se pudo cargar el chat web. Inténtalo de nuevo.</p>}
      {widget === undefined && !failed && <p className="muted">Cargando...</p>}
      {widget === null && <p>Todavía no has creado el chat web.</p>}
      {widget && (
        <>
          <h3>Código para tu web</h3>
          <p className="muted">Pégalo antes de &lt;/body&gt; en cada página donde quieras el chat.</p>
          <CopyableSecret value={widget.snippet} label="Código del chat web" copiedMessage="Código copiado" className="copyable-value" />
          <h3>Clave pública</h3>
          <CopyableSecret value={widget.publicKey} label="Clave pública" copiedMessage="Clave copiada" className="copyable-value" />
        </>
      )}
      {widget !== undefined && <WebWidgetForm key={widget?.updatedAt ?? 'new'} widget={widget} onSubmit={save} />}
    </section>
  );
}
