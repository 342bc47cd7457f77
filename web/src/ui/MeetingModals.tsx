import { createGoogleMeeting, createTeamsMeeting } from '../lib/meetings';
import { ScheduleModal, type ScheduleModalProps } from './ScheduleModal';

interface MeetingModalProps {
  onClose: () => void;
  onCreated: () => void;
  initial?: ScheduleModalProps['initial'];
}

/** 'Nueva Reunión Google Meet': an event with a Meet link, invitations emailed to the attendees. */
export function GoogleMeetingModal({ onClose, onCreated, initial }: MeetingModalProps) {
  return (
    <ScheduleModal
      title="Nueva Reunión Google Meet"
      submitLabel="Crear Reunión"
      savedMessage="Reunión de Meet creada"
      attendees={{ invalid: 'Correo de invitado inválido' }}
      description
      onSubmit={({ title, startTime, endTime, attendees, description }) => createGoogleMeeting({ title, startTime, endTime, attendees, description })}
      onClose={onClose}
      onCreated={onCreated}
      initial={initial}
    />
  );
}

/** 'Nueva Reunión': a Teams online meeting in the Outlook calendar, invitations sent by Microsoft. */
export function TeamsMeetingModal({ onClose, onCreated, initial }: MeetingModalProps) {
  return (
    <ScheduleModal
      title="Nueva Reunión"
      submitLabel="Crear Reunión"
      savedMessage="Reunión de Teams creada"
      attendees={{ invalid: 'Correo de asistente inválido' }}
      onSubmit={({ title, startTime, endTime, attendees }) => createTeamsMeeting({ title, startTime, endTime, attendees })}
      onClose={onClose}
      onCreated={onCreated}
      initial={initial}
    />
  );
}
