import { ProviderConnect, type ProviderFeature } from '../../ui/ProviderConnect';
import { NotConfiguredNote } from '../../ui/NotConfiguredNote';

interface NotConnectedViewProps {
  configured: boolean;
  needsReconnect: boolean;
  connecting: boolean;
  waiting: boolean;
  error: string | null;
  onConnect: () => void;
}

const FEATURES: readonly ProviderFeature[] = [
  { icon: 'calendar', title: 'Calendarios', text: 'Todos tus calendarios de Google en un solo lugar, con el principal seleccionado.' },
  { icon: 'video', title: 'Google Meet', text: 'Crea reuniones con enlace de Meet e invita a tus clientes por correo.' },
  { icon: 'clock', title: 'Sincronización', text: 'Los cambios que hagas en Google aparecen aquí en menos de un minuto.' },
];

/** The marketing view of the spec: what connecting brings, and the button that starts it. */
export function NotConnectedView({ configured, needsReconnect, connecting, waiting, error, onConnect }: NotConnectedViewProps) {
  return (
    <ProviderConnect
      id="gcal-connect"
      title="Conecta tu cuenta de Google"
      intro="Ve tus calendarios, crea eventos y programa reuniones de Google Meet sin salir de Mi Asistente.IA."
      notice={
        !configured && (
          <NotConfiguredNote
            message="Google Calendar no está configurado en este servidor. Pide al administrador que configure la conexión con Google Calendar."
            variables={['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET']}
          />
        )
      }
      alerts={[
        needsReconnect && 'Vuelve a conectar Google: el permiso que diste caducó o se retiró desde tu cuenta de Google.',
        error,
      ]}
      connectLabel="Conectar Google Calendar"
      connectingLabel="Abriendo Google..."
      waitingText="Completa el permiso en la pestaña de Google; esta página se actualizará sola."
      features={FEATURES}
      configured={configured}
      connecting={connecting}
      waiting={waiting}
      onConnect={onConnect}
    />
  );
}
