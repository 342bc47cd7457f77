import { ComingSoon } from '../../ui/ComingSoon';

export function GoogleCalendarPage() {
  return (
    <ComingSoon
      title="Google Calendar"
      subtitle="Calendarios, eventos y reuniones de Google Meet"
      icon="check"
      description="Aquí conectarás Google Calendar para ver tus calendarios, crear eventos y programar reuniones de Google Meet."
    />
  );
}
