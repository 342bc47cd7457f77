import { useState } from 'react';
import { Link } from 'wouter';
import { MeetingModal as GoogleMeetingModal } from '../../google-calendar/MeetingModal';
import { useGoogleStatus } from '../../google-calendar/use-google-status';
import { MeetingModal as TeamsMeetingModal } from '../../teams/MeetingModal';
import { useTeamsStatus } from '../../teams/use-teams-status';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { Modal } from '../../../ui/Modal';

interface ScheduleMeetingProps {
  name: string;
  email: string;
  /** The meeting was created (the timeline shows it once reloaded). */
  onCreated: () => void;
}

/**
 * "Programar reunión" on a contact's page: a Google Meet meeting with the contact invited, or a Teams one
 * when only Microsoft is connected; with neither, where to connect one.
 */
export function ScheduleMeeting({ name, email, onCreated }: ScheduleMeetingProps) {
  const google = useGoogleStatus();
  const teams = useTeamsStatus();
  const [open, setOpen] = useState(false);
  const loading = (google.status === null && !google.error) || (teams.status === null && !teams.error);
  const provider = google.status?.connected ? 'google' : teams.status?.connected ? 'teams' : null;
  const initial = { title: `Reunión con ${name}`, attendees: [email] };
  const close = () => setOpen(false);
  const created = () => {
    close();
    onCreated();
  };

  return (
    <>
      <Button variant="secondary" disabled={loading} onClick={() => setOpen(true)}>
        <Icon name="video" size={18} />
        Programar reunión
      </Button>
      {open && provider === 'google' && <GoogleMeetingModal initial={initial} onClose={close} onCreated={created} />}
      {open && provider === 'teams' && <TeamsMeetingModal initial={initial} onClose={close} onCreated={created} />}
      {open && provider === null && (
        <Modal title="Programar reunión" onClose={close}>
          <p>Para programar una reunión con {name}, conecta Google Calendar (Google Meet) o Microsoft Teams.</p>
          <div className="modal-actions">
            <Link href="/google-calendar" className="btn btn-secondary">
              Conectar Google Calendar
            </Link>
            <Link href="/teams" className="btn btn-secondary">
              Conectar Microsoft Teams
            </Link>
          </div>
        </Modal>
      )}
    </>
  );
}
