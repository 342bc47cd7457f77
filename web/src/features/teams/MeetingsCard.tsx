import { MEETINGS_SHOWN, type TeamsMeeting } from './api';
import { formatDateTime, meetingStatusLabel } from './format';
import type { Loadable } from './use-teams-data';

const STATUS_CLASS: Record<TeamsMeeting['status'], string> = {
  scheduled: 'badge badge-checking',
  'in-progress': 'badge badge-connected',
  ended: 'badge badge-disconnected',
};

/** Spec: the first 5 upcoming meetings with their status labels. */
export function MeetingsCard({ meetings }: { meetings: Loadable<TeamsMeeting[]> }) {
  return (
    <section className="card teams-meetings" aria-labelledby="teams-meetings-title">
      <h2 id="teams-meetings-title" className="card-title">
        Próximas reuniones
      </h2>
      {meetings.loading && !meetings.data && <p className="muted">Cargando reuniones...</p>}
      {meetings.error && (
        <p className="load-failed" role="alert">
          No se pudieron cargar las reuniones: {meetings.error}
        </p>
      )}
      {meetings.data?.length === 0 && <p className="muted">No hay reuniones programadas.</p>}
      <ul className="teams-meeting-list">
        {meetings.data?.slice(0, MEETINGS_SHOWN).map((m) => (
          <li key={m.id} className="teams-meeting">
            <div className="teams-meeting-head">
              <span className="teams-meeting-title">{m.title}</span>
              <span className={STATUS_CLASS[m.status]}>{meetingStatusLabel(m.status)}</span>
            </div>
            <p className="muted">
              {formatDateTime(m.startTime)} · {m.attendees.length === 1 ? '1 asistente' : `${m.attendees.length} asistentes`}
            </p>
            {m.joinUrl && m.status !== 'ended' && (
              <a href={m.joinUrl} target="_blank" rel="noopener noreferrer">
                Unirse
              </a>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
