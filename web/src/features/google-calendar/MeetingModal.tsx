import { ScheduleModal, type ScheduleModalProps } from '../../ui/ScheduleModal';
import { createMeeting } from './api';

interface MeetingModalProps {
  onClose: () => void;
  onCreated: () => void;
  initial?: ScheduleModalProps['initial'];
}

/** 'Nueva Reunión Google Meet': an event with a Meet link, invitations emailed to the attendees. */
export function MeetingModal({ onClose, onCreated, initial }: MeetingModalProps) {
  return (
    <ScheduleModal
      title="Nueva Reunión Google Meet"
      submitLabel="Crear Reunión"
      savedMessage="Reunión de Meet creada"
      attendees={{ invalid: 'Correo de invitado inválido' }}
      description
      onSubmit={({ title, startTime, endTime, attendees, description }) => createMeeting({ title, startTime, endTime, attendees, description })}
      onClose={onClose}
      onCreated={onCreated}
      initial={initial}
    />
  );
}
