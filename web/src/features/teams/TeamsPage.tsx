import { ComingSoon } from '../../ui/ComingSoon';

export function TeamsPage() {
  return (
    <ComingSoon
      title="Microsoft Teams"
      subtitle="Equipos, canales, mensajes y reuniones"
      icon="video"
      description="Aquí verás tus equipos y canales de Microsoft Teams, podrás enviar mensajes y programar reuniones."
    />
  );
}
