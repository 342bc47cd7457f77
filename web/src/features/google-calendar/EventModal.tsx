import { ScheduleModal } from '../../ui/ScheduleModal';
import { createEvent } from './api';

interface EventModalProps {
  calendarId: string;
  onClose: () => void;
  onCreated: () => void;
}

/** 'Nuevo Evento' in the selected calendar. */
export function EventModal({ calendarId, onClose, onCreated }: EventModalProps) {
  return (
    <ScheduleModal
      title="Nuevo Evento"
      submitLabel="Crear Evento"
      savedMessage="Evento creado"
      description
      location
      onSubmit={({ title, startTime, endTime, description, location }) => createEvent(calendarId, { title, startTime, endTime, description, location })}
      onClose={onClose}
      onCreated={onCreated}
    />
  );
}
