import type { DisplayEvent } from './display-event';
import { formatRange } from './display-event';

interface EventListProps {
  items: DisplayEvent[];
  onOpenEvent: (item: DisplayEvent) => void;
}

/** The list view: title, description and date range ('todo el día' for all-day events). */
export function EventList({ items, onOpenEvent }: EventListProps) {
  if (items.length === 0) {
    return (
      <div className="card cal-empty">
        <p>No hay eventos</p>
      </div>
    );
  }
  return (
    <ul className="card cal-list">
      {items.map((item) => (
        <li key={`${item.event.calendarId}:${item.event.id}:${item.firstDay}`} className="cal-list-item">
          <button type="button" className={`cal-list-button cal-type-${item.event.type}`} onClick={() => onOpenEvent(item)}>
            <span className="cal-list-title">{item.event.title}</span>
            {item.event.description && <span className="cal-list-description">{item.event.description}</span>}
            <span className="cal-list-when">{formatRange(item)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
