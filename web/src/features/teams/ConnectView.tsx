import { NotConfiguredNote } from '../../ui/NotConfiguredNote';
import { ProviderConnect, type ProviderFeature } from '../../ui/ProviderConnect';

interface ConnectViewProps {
  configured: boolean;
  /** The owner's sentence when not configured (from the server). */
  notConfiguredMessage: string | undefined;
  connecting: boolean;
  waiting: boolean;
  error: string | null;
  onConnect: () => void;
}

const FEATURES: readonly ProviderFeature[] = [
  { icon: 'users', title: 'Equipos y canales', text: 'Tus equipos de Microsoft Teams con sus miembros y canales.' },
  { icon: 'message', title: 'Mensajes', text: 'Lee y escribe en los canales; los mensajes nuevos aparecen solos.' },
  { icon: 'video', title: 'Reuniones', text: 'Programa reuniones de Teams con enlace para unirse e invita por correo.' },
];

/** Spec: when not connected, a connect screen. */
export function ConnectView({ configured, notConfiguredMessage, connecting, waiting, error, onConnect }: ConnectViewProps) {
  return (
    <ProviderConnect
      id="teams-connect"
      title="Conecta tu cuenta de Microsoft 365"
      intro="Trabaja con tus equipos, canales y reuniones de Microsoft Teams sin salir de Mi Asistente.IA."
      notice={
        !configured && (
          <NotConfiguredNote
            message={notConfiguredMessage ?? 'Microsoft 365 no está configurado en este servidor. Pide al administrador que configure la conexión con Microsoft 365.'}
            variables={['MICROSOFT_CLIENT_ID', 'MICROSOFT_CLIENT_SECRET']}
          />
        )
      }
      alerts={[error]}
      connectLabel="Conectar Microsoft Teams"
      connectingLabel="Abriendo Microsoft..."
      waitingText="Completa el permiso en la pestaña de Microsoft; esta página se actualizará sola."
      features={FEATURES}
      configured={configured}
      connecting={connecting}
      waiting={waiting}
      onConnect={onConnect}
    />
  );
}
