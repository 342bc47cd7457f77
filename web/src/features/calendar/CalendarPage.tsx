import { ComingSoon } from '../../ui/ComingSoon';

export function CalendarPage() {
  return (
    <ComingSoon
      title="Calendario"
      subtitle="Tus eventos de Google y Microsoft Teams en un solo lugar"
      icon="calendar"
      description="Aquí verás tus eventos de Google Calendar y Microsoft Teams en vista de mes o de lista, con búsqueda y filtros por reunión, recordatorio o tarea."
    />
  );
}
