import { ScheduleModal, type ScheduleModalProps } from '../../ui/ScheduleModal';
import { createMeeting } from './api';

interface MeetingModalProps {
  onClose: () => void;
  onCreated: () => void;
  initial?: ScheduleModalProps['initial'];
}

/** 'Nueva Reunión': a Teams online meeting in the Outlook calendar, invitations sent by Microsoft. */
export function MeetingModal({ onClose, onCreated, initial }: MeetingModalProps) {
  return (
    <ScheduleModal
      title="Nueva Reunión"
      submitLabel="Crear Reunión"
      savedMessage="Reunión de Teams creada"
      attendees={{ invalid: 'Correo de asistente inválido' }}
      onSubmit={({ title, startTime, endTime, attendees }) => createMeeting({ title, startTime, endTime, attendees })}
      onClose={onClose}
      onCreated={onCreated}
      initial={initial}
    />
  );
}
