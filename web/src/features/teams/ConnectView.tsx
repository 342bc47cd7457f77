import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';

interface ConnectViewProps {
  configured: boolean;
  /** The administrator's sentence when not configured (from the server). */
  notConfiguredMessage: string | undefined;
  connecting: boolean;
  waiting: boolean;
  error: string | null;
  onConnect: () => void;
}

const FEATURES = [
  { icon: 'users', title: 'Equipos y canales', text: 'Tus equipos de Microsoft Teams con sus miembros y canales.' },
  { icon: 'message', title: 'Mensajes', text: 'Lee y escribe en los canales; los mensajes nuevos aparecen solos.' },
  { icon: 'video', title: 'Reuniones', text: 'Programa reuniones de Teams con enlace para unirse e invita por correo.' },
] as const;

/** Spec: when not connected, a connect screen. */
export function ConnectView({ configured, notConfiguredMessage, connecting, waiting, error, onConnect }: ConnectViewProps) {
  return (
    <section className="card teams-connect" aria-labelledby="teams-connect-title">
      <h2 id="teams-connect-title">Conecta tu cuenta de Microsoft 365</h2>
      <p className="muted">Trabaja con tus equipos, canales y reuniones de Microsoft Teams sin salir de Mi Asistente.IA.</p>
      {!configured && (
        <p className="teams-alert" role="alert">
          {notConfiguredMessage ?? 'Microsoft 365 no está configurado en este servidor: el administrador debe definir MICROSOFT_CLIENT_ID y MICROSOFT_CLIENT_SECRET.'}
        </p>
      )}
      {error && (
        <p className="teams-alert" role="alert">
          {error}
        </p>
      )}
      <Button onClick={onConnect} disabled={!configured || connecting}>
        {connecting ? 'Abriendo Microsoft...' : 'Conectar Microsoft Teams'}
      </Button>
      {waiting && <p className="muted teams-waiting">Completa el permiso en la pestaña de Microsoft; esta página se actualizará sola.</p>}
      <div className="teams-features">
        {FEATURES.map((f) => (
          <article key={f.title} className="teams-feature">
            <Icon name={f.icon} size={22} />
            <h3>{f.title}</h3>
            <p className="muted">{f.text}</p>
          </article>
        ))}
      </div>
    </section>
  );
}
