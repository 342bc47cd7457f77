import { useEffect, useState } from 'react';
import { useConnectInNewTab } from '../../lib/use-connect-in-new-tab';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { PageHeader } from '../../ui/PageHeader';
import { disconnect, getConnectUrl } from './api';
import { CalendarsColumn } from './CalendarsColumn';
import { CONNECT_OUTCOMES } from './connect-outcome';
import { EventModal } from './EventModal';
import './google-calendar.css';
import { MeetColumn } from './MeetColumn';
import { GoogleMeetingModal as MeetingModal } from '../../ui/MeetingModals';
import { NotConnectedView } from './NotConnectedView';
import { UpcomingEvents } from './UpcomingEvents';
import { useGoogleData } from './use-google-data';
import { useGoogleStatus } from './use-google-status';

export function GoogleCalendarPage() {
  const { status, error: statusError, reload, watchForConnection, setStatus } = useGoogleStatus();
  const connected = status?.connected === true;
  const data = useGoogleData(connected);
  const [waiting, setWaiting] = useState(false);
  const [connectError, setConnectError] = useState<string | null>(null);
  const [modal, setModal] = useState<'event' | 'meeting' | 'disconnect' | null>(null);
  const [disconnecting, setDisconnecting] = useState(false);

  // Back from Google's consent (this tab or the one it opened): say how it went.
  const { connect: connectInNewTab, connecting } = useConnectInNewTab({
    name: 'google',
    onOutcome: ({ google }) => {
      const outcome = google ? CONNECT_OUTCOMES[google] : undefined;
      if (!outcome) return;
      toast[outcome.kind](outcome.message);
      if (outcome.kind === 'success') void reload();
    },
  });

  useEffect(() => {
    if (connected) setWaiting(false);
  }, [connected]);

  const connect = async () => {
    setConnectError(null);
    try {
      await connectInNewTab(async () => (await getConnectUrl()).url);
      setWaiting(true);
      watchForConnection();
    } catch (err) {
      console.error('No se pudo iniciar la conexión con Google', err);
      setConnectError(errorMessage(err));
    }
  };

  const confirmDisconnect = async () => {
    setDisconnecting(true);
    try {
      await disconnect();
      setStatus({ connected: false, email: null, configured: status?.configured ?? true, needsReconnect: false, message: null });
      toast.success('Google Calendar desconectado');
    } catch (err) {
      console.error('No se pudo desconectar Google Calendar', err);
      toast.error(errorMessage(err));
    } finally {
      setDisconnecting(false);
      setModal(null);
    }
  };

  if (!status) {
    return (
      <>
        <PageHeader title="Google Calendar" subtitle="Calendarios, eventos y reuniones de Google Meet" />
        {statusError ? (
          <div className="card load-failed" role="alert">
            <p>No se pudo cargar el estado de Google Calendar: {statusError}</p>
            <Button variant="secondary" onClick={() => void reload()}>
              Reintentar
            </Button>
          </div>
        ) : (
          <p className="page-loading" role="status">
            Cargando Google Calendar...
          </p>
        )}
      </>
    );
  }

  if (!connected) {
    return (
      <>
        <PageHeader title="Google Calendar" subtitle="Calendarios, eventos y reuniones de Google Meet" />
        <NotConnectedView
          configured={status.configured}
          needsReconnect={status.needsReconnect}
          connecting={connecting}
          waiting={waiting}
          error={connectError}
          onConnect={() => void connect()}
        />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Google Calendar & Meet"
        subtitle={status.email ? `Conectado como ${status.email}` : undefined}
        actions={
          <>
            <Button onClick={() => setModal('event')} disabled={!data.selected}>
              Nuevo Evento
            </Button>
            <Button onClick={() => setModal('meeting')}>Nueva Reunión Meet</Button>
            <Button variant="secondary" onClick={() => setModal('disconnect')}>
              Desconectar
            </Button>
          </>
        }
      />
      <div className="gcal-grid">
        <CalendarsColumn calendars={data.calendars.data} error={data.calendars.error} selected={data.selected} onSelect={data.setSelected} />
        <UpcomingEvents events={data.events.data} error={data.events.error} />
        <MeetColumn meetings={data.meetings.data} error={data.meetings.error} />
      </div>
      {modal === 'event' && data.selected && (
        <EventModal
          calendarId={data.selected}
          onClose={() => setModal(null)}
          onCreated={() => {
            setModal(null);
            data.loadEvents();
          }}
        />
      )}
      {modal === 'meeting' && (
        <MeetingModal
          onClose={() => setModal(null)}
          onCreated={() => {
            setModal(null);
            data.loadMeetings();
            data.loadEvents();
          }}
        />
      )}
      {modal === 'disconnect' && (
        <ConfirmDialog
          title="Desconectar Google Calendar"
          message="Dejarás de ver tus calendarios y reuniones de Google aquí. Tus eventos siguen en Google."
          confirmLabel={disconnecting ? 'Desconectando...' : 'Desconectar'}
          busy={disconnecting}
          onConfirm={() => void confirmDisconnect()}
          onCancel={() => setModal(null)}
        />
      )}
    </>
  );
}
