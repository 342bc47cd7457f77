import { onDay, formatTime, type DisplayEvent } from './display-event';
import { dayKey, gridDays, WEEKDAY_NAMES, WEEKDAYS } from './month';

/** Spec: at most 3 events per day cell, then '+N más'. */
export const EVENTS_PER_CELL = 3;

const DAY_LABEL = new Intl.DateTimeFormat('es-ES', { weekday: 'long', day: 'numeric', month: 'long' });

interface MonthGridProps {
  month: Date;
  items: DisplayEvent[];
  onOpenEvent: (item: DisplayEvent) => void;
  onOpenDay: (key: string) => void;
  onCreateOn: ((key: string) => void) | null;
}

export function MonthGrid({ month, items, onOpenEvent, onOpenDay, onCreateOn }: MonthGridProps) {
  const today = dayKey(new Date());
  const days = gridDays(month);
  return (
    <div className="card cal-grid-card">
      <div className="cal-grid" role="table" aria-label="Eventos del mes">
        <div className="cal-row cal-weekdays" role="row">
          {WEEKDAYS.map((d, i) => (
            <div key={d} role="columnheader" className="cal-weekday">
              <abbr title={WEEKDAY_NAMES[i]}>{d}</abbr>
            </div>
          ))}
        </div>
        {Array.from({ length: 6 }, (_, week) => (
          <div className="cal-row" role="row" key={week}>
            {days.slice(week * 7, week * 7 + 7).map((day) => {
              const key = dayKey(day);
              const dayItems = onDay(items, key);
              const hidden = dayItems.length - EVENTS_PER_CELL;
              const outside = day.getMonth() !== month.getMonth();
              return (
                <div
                  key={key}
                  role="cell"
                  data-day={key}
                  aria-label={DAY_LABEL.format(day)}
                  className={`cal-cell ${outside ? 'is-outside' : ''} ${key === today ? 'is-today' : ''}`}
                >
                  <div className="cal-cell-head">
                    <span className="cal-date">{day.getDate()}</span>
                    {onCreateOn && (
                      <button type="button" className="cal-add" aria-label={`Nuevo evento el ${DAY_LABEL.format(day)}`} onClick={() => onCreateOn(key)}>
                        +
                      </button>
                    )}
                  </div>
                  {dayItems.slice(0, EVENTS_PER_CELL).map((item) => (
                    <button
                      key={`${item.event.calendarId}:${item.event.id}`}
                      type="button"
                      className={`cal-chip cal-type-${item.event.type} cal-source-${item.event.source}`}
                      title={item.event.source === 'caldav' ? `CalDAV · ${item.event.title}` : undefined}
                      onClick={() => onOpenEvent(item)}
                    >
                      {item.event.source === 'caldav' && <span className="cal-source-label">CalDAV</span>}
                      {!item.allDay && item.firstDay === key && <span className="cal-chip-time">{formatTime(item.start)}</span>}
                      <span className="cal-chip-title">{item.event.title}</span>
                    </button>
                  ))}
                  {hidden > 0 && (
                    <button type="button" className="cal-more" onClick={() => onOpenDay(key)}>
                      +{hidden} más
                    </button>
                  )}
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
