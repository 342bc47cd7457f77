import { useEffect, useState } from 'react';
import { useConnectInNewTab } from '../../lib/use-connect-in-new-tab';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { PageHeader } from '../../ui/PageHeader';
import { disconnect, startConnect } from './api';
import { CONNECT_OUTCOMES } from './connect-outcome';
import { ConnectView } from './ConnectView';
import { TeamsMeetingModal as MeetingModal } from '../../ui/MeetingModals';
import { MeetingsCard } from './MeetingsCard';
import { MessagePane } from './MessagePane';
import { TeamsColumn } from './TeamsColumn';
import { useTeamsData } from './use-teams-data';
import { useTeamsStatus } from './use-teams-status';
import './teams.css';

const TITLE = 'Microsoft Teams';
const SUBTITLE = 'Equipos, canales, mensajes y reuniones';

export function TeamsPage() {
  const { status, error: statusError, reload, setStatus, watching, watchForConnection } = useTeamsStatus();
  const connected = status?.connected === true;
  const data = useTeamsData(connected);
  const [connectError, setConnectError] = useState<string | null>(null);
  const [modal, setModal] = useState<'meeting' | 'disconnect' | null>(null);
  const [disconnecting, setDisconnecting] = useState(false);

  // Back from Microsoft's consent, in this tab or handed over by the tab it ran in.
  const { connect: connectInNewTab, connecting } = useConnectInNewTab({
    name: 'microsoft',
    onOutcome: ({ microsoft }) => {
      const outcome = microsoft ? CONNECT_OUTCOMES[microsoft] : undefined;
      if (outcome?.kind === 'success') {
        toast.success(outcome.message);
        void reload();
        // A reconnect ("Volver a conectar") keeps the status connected: the lists it could not load load now.
        if (connected) {
          void data.loadTeams();
          void data.loadMeetings();
        }
      } else if (outcome) setConnectError(outcome.message);
    },
  });

  // After "Volver a conectar" the consent completes in another tab: coming back here loads again.
  const needsReconnect = data.teams.code === 'MICROSOFT_RECONNECT';
  const { loadTeams, loadMeetings } = data;
  useEffect(() => {
    if (!needsReconnect) return undefined;
    const onFocus = () => {
      void loadTeams();
      void loadMeetings();
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [needsReconnect, loadTeams, loadMeetings]);

  // Spec: connect obtains an authorization URL and opens it in a new tab (this one follows when blocked).
  const connect = async () => {
    setConnectError(null);
    try {
      const { newTab } = await connectInNewTab(async () => (await startConnect()).authUrl);
      if (newTab) watchForConnection();
    } catch (err) {
      console.error('No se pudo iniciar la conexión con Microsoft', err);
      setConnectError(errorMessage(err));
      // Connected already (a reconnect): the connect screen is not there to show the error.
      if (connected) toast.error(errorMessage(err));
    }
  };

  const confirmDisconnect = async () => {
    setDisconnecting(true);
    try {
      await disconnect();
      setStatus({ connected: false, configured: status?.configured ?? true });
      toast.success('Microsoft Teams desconectado');
      setModal(null);
    } catch (err) {
      console.error('No se pudo desconectar Microsoft Teams', err);
      toast.error(errorMessage(err));
    } finally {
      setDisconnecting(false);
    }
  };

  if (!status) {
    return (
      <>
        <PageHeader title={TITLE} subtitle={SUBTITLE} />
        {statusError ? (
          <p className="load-failed card" role="alert">
            No se pudo consultar la conexión con Microsoft Teams: {statusError}
          </p>
        ) : (
          <p className="muted">Cargando Microsoft Teams...</p>
        )}
      </>
    );
  }

  if (!connected) {
    return (
      <>
        <PageHeader title={TITLE} subtitle={SUBTITLE} />
        <ConnectView
          configured={status.configured}
          notConfiguredMessage={status.message}
          connecting={connecting}
          waiting={watching}
          error={connectError}
          onConnect={() => void connect()}
        />
      </>
    );
  }

  const channel = data.channels.data?.find((c) => c.id === data.channelId) ?? null;
  return (
    <>
      <PageHeader
        title={TITLE}
        subtitle={status.account?.email ? `Conectado como ${status.account.email}` : SUBTITLE}
        actions={
          <>
            <Button onClick={() => setModal('meeting')}>Nueva Reunión</Button>
            <Button variant="secondary" onClick={() => setModal('disconnect')}>
              Desconectar
            </Button>
          </>
        }
      />
      <div className="teams-layout">
        <TeamsColumn
          teams={data.teams}
          teamId={data.teamId}
          onSelectTeam={data.selectTeam}
          channels={data.channels}
          channelId={data.channelId}
          onSelectChannel={data.selectChannel}
          onRetry={() => void data.loadTeams()}
          onReconnect={() => void connect()}
        />
        <MessagePane channel={channel} />
        <MeetingsCard meetings={data.meetings} />
      </div>
      {modal === 'meeting' && (
        <MeetingModal
          onClose={() => setModal(null)}
          onCreated={() => {
            setModal(null);
            void data.loadMeetings();
          }}
        />
      )}
      {modal === 'disconnect' && (
        <ConfirmDialog
          title="Desconectar Microsoft Teams"
          message="¿Seguro que quieres desconectar tu cuenta de Microsoft? Dejarás de ver aquí tus equipos, canales, reuniones y calendarios de Outlook."
          confirmLabel={disconnecting ? 'Desconectando...' : 'Desconectar'}
          busy={disconnecting}
          onConfirm={() => void confirmDisconnect()}
          onCancel={() => setModal(null)}
        />
      )}
    </>
  );
}
