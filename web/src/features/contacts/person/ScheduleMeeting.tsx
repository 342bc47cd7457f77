import { useState } from 'react';
import { Link } from 'wouter';
import { getGoogleStatus, getTeamsStatus } from '../../../lib/meetings';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { GoogleMeetingModal, TeamsMeetingModal } from '../../../ui/MeetingModals';
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
  // null: closed; otherwise the provider the meeting goes to, asked when the button is pressed (not on every
  // contact page shown), 'none' when neither is connected.
  const [provider, setProvider] = useState<'google' | 'teams' | 'none' | null>(null);
  const [asking, setAsking] = useState(false);
  const open = async () => {
    setAsking(true);
    const [google, teams] = await Promise.allSettled([getGoogleStatus(), getTeamsStatus()]);
    setAsking(false);
    const connected = (answer: PromiseSettledResult<{ connected: boolean }>) => answer.status === 'fulfilled' && answer.value.connected;
    setProvider(connected(google) ? 'google' : connected(teams) ? 'teams' : 'none');
  };
  const initial = { title: `Reunión con ${name}`, attendees: [email] };
  const close = () => setProvider(null);
  const created = () => {
    close();
    onCreated();
  };

  return (
    <>
      <Button variant="secondary" disabled={asking} onClick={() => void open()}>
        <Icon name="video" size={18} />
        Programar reunión
      </Button>
      {provider === 'google' && <GoogleMeetingModal initial={initial} onClose={close} onCreated={created} />}
      {provider === 'teams' && <TeamsMeetingModal initial={initial} onClose={close} onCreated={created} />}
      {provider === 'none' && (
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
