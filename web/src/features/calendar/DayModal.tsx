import { Modal } from '../../ui/Modal';
import { formatRange, type DisplayEvent } from './display-event';

const DAY_LABEL = new Intl.DateTimeFormat('es-ES', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

interface DayModalProps {
  dayKey: string;
  items: DisplayEvent[];
  onClose: () => void;
  onOpenEvent: (item: DisplayEvent) => void;
}

/** Every event of one day (what '+N más' opens). */
export function DayModal({ dayKey, items, onClose, onOpenEvent }: DayModalProps) {
  const [y, m, d] = dayKey.split('-').map(Number) as [number, number, number];
  const label = DAY_LABEL.format(new Date(y, m - 1, d));
  return (
    <Modal title={label.charAt(0).toUpperCase() + label.slice(1)} onClose={onClose}>
      <ul className="cal-day-list">
        {items.map((item) => (
          <li key={`${item.event.calendarId}:${item.event.id}`}>
            <button type="button" className={`cal-list-button cal-type-${item.event.type}`} onClick={() => onOpenEvent(item)}>
              <span className="cal-list-title">{item.event.title}</span>
              <span className="cal-list-when">{formatRange(item)}</span>
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
