import { Link } from 'wouter';
import { Button } from '../../ui/Button';
import type { GoogleStatus, TeamsStatus } from './api';
import { formatTime } from './display-event';

interface ProviderCardsProps {
  googleStatus: GoogleStatus | null;
  googleCalendarName: string;
  teamsStatus: TeamsStatus | null;
  teamsCalendarName: string;
  loadedAt: Date | null;
  loading: boolean;
  onListGoogle: () => void;
  onRefreshGoogle: () => void;
  onListTeams: () => void;
  onRefreshTeams: () => void;
  onRefresh: () => void;
}

function googleLine(status: GoogleStatus | null): string {
  if (!status) return 'Comprobando conexión...';
  if (status.connected) return `Conectado como ${status.email ?? 'tu cuenta de Google'}`;
  if (status.needsReconnect) return 'Vuelve a conectar Google';
  return status.configured ? 'No conectado' : 'No configurado en este servidor';
}

/** The Google and Teams calendar cards (list calendars, force refresh) and the refresh card. */
export function ProviderCards(props: ProviderCardsProps) {
  const google = props.googleStatus;
  const teamsConnected = props.teamsStatus?.connected === true;
  return (
    <div className="cal-cards">
      <section className="card cal-card" aria-labelledby="cal-google-card">
        <h2 id="cal-google-card" className="card-title">
          Google Calendar
        </h2>
        <p className="muted">{googleLine(google)}</p>
        {google?.connected && <p className="cal-card-calendar">Calendario: {props.googleCalendarName}</p>}
        <div className="cal-card-actions">
          {google?.connected ? (
            <>
              <Button variant="secondary" small onClick={props.onListGoogle}>
                Listar calendarios
              </Button>
              <Button variant="secondary" small onClick={props.onRefreshGoogle} disabled={props.loading}>
                Forzar actualización
              </Button>
            </>
          ) : (
            <Link href="/google-calendar" className="btn btn-secondary btn-sm">
              Conectar Google Calendar
            </Link>
          )}
        </div>
      </section>
      <section className="card cal-card" aria-labelledby="cal-teams-card">
        <h2 id="cal-teams-card" className="card-title">
          Microsoft Teams
        </h2>
        <p className="muted">{props.teamsStatus === null ? 'Sin conexión con Microsoft' : teamsConnected ? 'Conectado' : 'No conectado'}</p>
        {teamsConnected && <p className="cal-card-calendar">Calendario: {props.teamsCalendarName}</p>}
        <div className="cal-card-actions">
          {teamsConnected ? (
            <>
              <Button variant="secondary" small onClick={props.onListTeams}>
                Listar calendarios
              </Button>
              <Button variant="secondary" small onClick={props.onRefreshTeams} disabled={props.loading}>
                Forzar actualización
              </Button>
            </>
          ) : (
            <Link href="/teams" className="btn btn-secondary btn-sm">
              Conectar Microsoft Teams
            </Link>
          )}
        </div>
      </section>
      <section className="card cal-card" aria-labelledby="cal-refresh-card">
        <h2 id="cal-refresh-card" className="card-title">
          Actualización
        </h2>
        <p className="muted" role="status">
          {props.loading ? 'Actualizando...' : props.loadedAt ? `Actualizado a las ${formatTime(props.loadedAt)}` : 'Sin datos todavía'}
        </p>
        <div className="cal-card-actions">
          <Button variant="secondary" small onClick={props.onRefresh} disabled={props.loading}>
            Actualizar
          </Button>
        </div>
      </section>
    </div>
  );
}
