import type { StatusFilter } from './api';
import { STATUS_FILTERS } from './format';

interface InboxFiltersProps {
  status: StatusFilter;
  onStatus: (status: StatusFilter) => void;
  search: string;
  onSearch: (search: string) => void;
}

export function InboxFilters({ status, onStatus, search, onSearch }: InboxFiltersProps) {
  return (
    <div className="inbox-filters">
      <div className="field inbox-status-filter">
        <label htmlFor="bandeja-estado">Estado</label>
        <select id="bandeja-estado" value={status} onChange={(e) => onStatus(e.target.value as StatusFilter)}>
          {STATUS_FILTERS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field inbox-search">
        <label htmlFor="bandeja-buscar">Buscar</label>
        <input id="bandeja-buscar" type="search" placeholder="Nombre, número o mensaje" value={search} onInput={(e) => onSearch(e.currentTarget.value)} />
      </div>
    </div>
  );
}
