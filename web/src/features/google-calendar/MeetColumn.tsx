import type { Meeting } from './api';
import { attendeeCount, formatDateTime } from './format';

interface MeetColumnProps {
  meetings: Meeting[] | null;
  error: string | null;
}

/** The product's Google Meet meetings (spec: the first 5). */
export function MeetColumn({ meetings, error }: MeetColumnProps) {
  return (
    <section className="card gcal-column" aria-labelledby="gcal-meet">
      <h2 id="gcal-meet" className="card-title">
        Google Meet
      </h2>
      {error && <p className="alert-warning" role="alert">{error}</p>}
      {!meetings && !error && <p className="muted">Cargando reuniones...</p>}
      {meetings && meetings.length === 0 && <p className="muted">Aún no has creado reuniones de Meet</p>}
      <ul className="gcal-events">
        {meetings?.map((m) => (
          <li key={m.id} className="gcal-event">
            <h3>{m.title}</h3>
            <p className="gcal-when">{formatDateTime(m.startTime)}</p>
            <p className="muted">{attendeeCount(m.attendees.length)}</p>
            {m.meetingUrl && (
              <a href={m.meetingUrl} target="_blank" rel="noopener noreferrer" className="btn btn-secondary btn-sm">
                Unirse
              </a>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
