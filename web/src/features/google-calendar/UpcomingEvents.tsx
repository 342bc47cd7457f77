import type { GoogleEvent } from './api';
import { attendeeCount, formatEventStart } from './format';

interface UpcomingEventsProps {
  events: GoogleEvent[] | null;
  error: string | null;
}

/** The selected calendar's next events (spec: the first 10), with the Meet link when there is one. */
export function UpcomingEvents({ events, error }: UpcomingEventsProps) {
  return (
    <section className="card gcal-column" aria-labelledby="gcal-upcoming">
      <h2 id="gcal-upcoming" className="card-title">
        Próximos eventos
      </h2>
      {error && <p className="alert-warning" role="alert">{error}</p>}
      {!events && !error && <p className="muted">Cargando eventos...</p>}
      {events && events.length === 0 && <p className="muted">No hay eventos próximos</p>}
      <ul className="gcal-events">
        {events?.map((e) => (
          <li key={e.id} className="gcal-event">
            <h3>{e.summary?.trim() ? e.summary : 'Sin título'}</h3>
            <p className="gcal-when">{formatEventStart(e)}</p>
            {e.description && <p className="gcal-description">{e.description}</p>}
            {e.location && <p className="muted">{e.location}</p>}
            <p className="muted">{attendeeCount(e.attendees.length)}</p>
            {e.hangoutLink && (
              <a href={e.hangoutLink} target="_blank" rel="noopener noreferrer" className="btn btn-secondary btn-sm">
                Unirse a Meet
              </a>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
