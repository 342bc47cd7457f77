import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';

interface NotConnectedViewProps {
  configured: boolean;
  needsReconnect: boolean;
  connecting: boolean;
  waiting: boolean;
  error: string | null;
  onConnect: () => void;
}

const FEATURES = [
  { icon: 'calendar', title: 'Calendarios', text: 'Todos tus calendarios de Google en un solo lugar, con el principal seleccionado.' },
  { icon: 'video', title: 'Google Meet', text: 'Crea reuniones con enlace de Meet e invita a tus clientes por correo.' },
  { icon: 'clock', title: 'Sincronización', text: 'Los cambios que hagas en Google aparecen aquí en menos de un minuto.' },
] as const;

/** The marketing view of the spec: what connecting brings, and the button that starts it. */
export function NotConnectedView({ configured, needsReconnect, connecting, waiting, error, onConnect }: NotConnectedViewProps) {
  return (
    <section className="card gcal-connect" aria-labelledby="gcal-connect-title">
      <h2 id="gcal-connect-title">Conecta tu cuenta de Google</h2>
      <p className="muted">Ve tus calendarios, crea eventos y programa reuniones de Google Meet sin salir de Mi Asistente.IA.</p>
      {needsReconnect && (
        <p className="gcal-alert" role="alert">
          Vuelve a conectar Google: el permiso que diste caducó o se retiró desde tu cuenta de Google.
        </p>
      )}
      {!configured && (
        <p className="gcal-alert" role="alert">
          Google Calendar no está configurado: el administrador debe definir GOOGLE_CLIENT_ID y GOOGLE_CLIENT_SECRET en la configuración del servidor.
        </p>
      )}
      {error && (
        <p className="gcal-alert" role="alert">
          {error}
        </p>
      )}
      <Button onClick={onConnect} disabled={!configured || connecting}>
        {connecting ? 'Abriendo Google...' : 'Conectar Google Calendar'}
      </Button>
      {waiting && <p className="muted gcal-waiting">Completa el permiso en la pestaña de Google; esta página se actualizará sola.</p>}
      <div className="gcal-features">
        {FEATURES.map((f) => (
          <article key={f.title} className="gcal-feature">
            <Icon name={f.icon} size={22} />
            <h3>{f.title}</h3>
            <p className="muted">{f.text}</p>
          </article>
        ))}
      </div>
    </section>
  );
}
