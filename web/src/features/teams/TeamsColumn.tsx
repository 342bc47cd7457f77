import type { TeamsChannel, TeamsTeam } from './api';
import type { Loadable } from './use-teams-data';

interface TeamsColumnProps {
  teams: Loadable<TeamsTeam[]>;
  teamId: string | null;
  onSelectTeam: (id: string) => void;
  channels: Loadable<TeamsChannel[]>;
  channelId: string | null;
  onSelectChannel: (id: string) => void;
  onRetry: () => void;
  /** Starts the Microsoft sign-in again (the session expired or was revoked). */
  onReconnect: () => void;
}

const members = (n: number) => (n === 1 ? '1 miembro' : `${n} miembros`);

/** Teams with their member counts, and the selected team's channels. */
export function TeamsColumn({ teams, teamId, onSelectTeam, channels, channelId, onSelectChannel, onRetry, onReconnect }: TeamsColumnProps) {
  return (
    <div className="teams-column">
      <section className="card teams-list" aria-labelledby="teams-teams-title">
        <h2 id="teams-teams-title" className="card-title">
          Equipos
        </h2>
        {teams.loading && <p className="muted">Cargando equipos...</p>}
        {teams.error && (
          <div className="load-failed" role="alert">
            <p>No se pudieron cargar los equipos: {teams.error}</p>
            {teams.code === 'MICROSOFT_RECONNECT' ? (
              <button type="button" className="btn btn-primary btn-sm" onClick={onReconnect}>
                Volver a conectar
              </button>
            ) : (
              <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
                Reintentar
              </button>
            )}
          </div>
        )}
        {teams.data?.length === 0 && <p className="muted">No perteneces a ningún equipo de Teams.</p>}
        <ul className="teams-pick-list">
          {teams.data?.map((team) => (
            <li key={team.id}>
              <button type="button" className="teams-pick" aria-pressed={team.id === teamId} onClick={() => onSelectTeam(team.id)}>
                <span className="teams-pick-name">{team.name}</span>
                <span className="muted teams-pick-meta">{members(team.memberCount)}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      {teamId && (
        <section className="card teams-list" aria-labelledby="teams-channels-title">
          <h2 id="teams-channels-title" className="card-title">
            Canales
          </h2>
          {channels.loading && <p className="muted">Cargando canales...</p>}
          {channels.error && (
            <p className="load-failed" role="alert">
              No se pudieron cargar los canales: {channels.error}
            </p>
          )}
          {channels.data?.length === 0 && <p className="muted">Este equipo no tiene canales.</p>}
          <ul className="teams-pick-list">
            {channels.data?.map((channel) => (
              <li key={channel.id}>
                <button type="button" className="teams-pick" aria-pressed={channel.id === channelId} onClick={() => onSelectChannel(channel.id)}>
                  <span className="teams-pick-name"># {channel.name}</span>
                  <span className="muted teams-pick-meta">
                    {channel.type === 'private' ? 'Privado · ' : channel.type === 'shared' ? 'Compartido · ' : ''}
                    {members(channel.memberCount)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
