import type { GoogleCalendarEntry } from './api';

interface CalendarsColumnProps {
  calendars: GoogleCalendarEntry[] | null;
  error: string | null;
  selected: string | null;
  onSelect: (id: string) => void;
}

export function CalendarsColumn({ calendars, error, selected, onSelect }: CalendarsColumnProps) {
  return (
    <section className="card gcal-column" aria-labelledby="gcal-calendars">
      <h2 id="gcal-calendars" className="card-title">
        Calendarios
      </h2>
      {error && <p className="alert-warning" role="alert">{error}</p>}
      {!calendars && !error && <p className="muted">Cargando calendarios...</p>}
      <ul className="gcal-calendar-list">
        {calendars?.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              className={`gcal-calendar ${selected === c.id ? 'is-selected' : ''}`}
              aria-pressed={selected === c.id}
              onClick={() => onSelect(c.id)}
            >
              <span className="gcal-swatch" style={{ background: c.backgroundColor ?? '#4f46e5' }} aria-hidden="true" />
              <span className="gcal-calendar-name">{c.summary}</span>
              {c.primary && <span className="badge badge-connected">Principal</span>}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
