import { useId } from 'react';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import type { TypeFilter } from './display-event';
import { MONTH_LABEL } from './month';

export type View = 'month' | 'list';

interface CalendarToolbarProps {
  month: Date;
  onPrevious: () => void;
  onNext: () => void;
  onToday: () => void;
  view: View;
  onView: (view: View) => void;
  search: string;
  onSearch: (search: string) => void;
  type: TypeFilter;
  onType: (type: TypeFilter) => void;
  canCreate: boolean;
  onCreate: () => void;
}

export function CalendarToolbar(props: CalendarToolbarProps) {
  const searchId = useId();
  const typeId = useId();
  const label = MONTH_LABEL.format(props.month);
  return (
    <div className="card cal-toolbar">
      <div className="cal-nav">
        <Button variant="secondary" small aria-label="Mes anterior" onClick={props.onPrevious}>
          ‹
        </Button>
        <h2 className="cal-month" aria-live="polite">
          {label.charAt(0).toUpperCase() + label.slice(1)}
        </h2>
        <Button variant="secondary" small aria-label="Mes siguiente" onClick={props.onNext}>
          ›
        </Button>
        <Button variant="secondary" small onClick={props.onToday}>
          Hoy
        </Button>
      </div>
      <div className="cal-segmented" role="group" aria-label="Vista">
        <button type="button" aria-pressed={props.view === 'month'} className={props.view === 'month' ? 'is-active' : ''} onClick={() => props.onView('month')}>
          Mes
        </button>
        <button type="button" aria-pressed={props.view === 'list'} className={props.view === 'list' ? 'is-active' : ''} onClick={() => props.onView('list')}>
          Lista
        </button>
      </div>
      <div className="filters cal-filters" role="search">
        <div className="field search-field">
          <label htmlFor={searchId} className="sr-only">
            Buscar eventos
          </label>
          <Icon name="search" size={18} />
          <input id={searchId} type="search" placeholder="Buscar eventos..." value={props.search} onInput={(e) => props.onSearch(e.currentTarget.value)} />
        </div>
        <div className="field">
          <label htmlFor={typeId} className="sr-only">
            Tipo de evento
          </label>
          <select id={typeId} value={props.type} onChange={(e) => props.onType(e.currentTarget.value as TypeFilter)}>
            <option value="all">Todos los tipos</option>
            <option value="meeting">Reuniones</option>
            <option value="reminder">Recordatorios</option>
            <option value="task">Tareas</option>
          </select>
        </div>
      </div>
      {props.canCreate && (
        <Button onClick={props.onCreate}>
          <Icon name="plus" size={16} /> Nuevo evento
        </Button>
      )}
    </div>
  );
}
