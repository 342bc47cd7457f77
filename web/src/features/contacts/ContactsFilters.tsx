import { useId } from 'react';
import { Icon } from '../../ui/Icon';
import { LIST_ORDERS, type ListOrder } from './use-list-url';

interface ContactsFiltersProps {
  search: string;
  onSearch: (search: string) => void;
  tag: string;
  tags: string[];
  onTag: (tag: string) => void;
  order: ListOrder;
  onOrder: (order: ListOrder) => void;
}

export function ContactsFilters({ search, onSearch, tag, tags, onTag, order, onOrder }: ContactsFiltersProps) {
  const searchId = useId();
  const tagId = useId();
  const orderId = useId();
  return (
    <div className="filters" role="search">
      <div className="field search-field">
        <label htmlFor={searchId} className="sr-only">
          Buscar contactos
        </label>
        <Icon name="search" size={18} />
        <input
          id={searchId}
          type="search"
          // Short enough for a phone's field (the longer list of fields was cut off at 360 px); the tooltip says what is searched.
          placeholder="Buscar contactos..."
          title="Busca por nombre, correo, teléfono o empresa"
          value={search}
          onInput={(e) => onSearch(e.currentTarget.value)}
        />
      </div>
      <div className="field tag-filter">
        <label htmlFor={tagId} className="sr-only">
          Filtrar por etiqueta
        </label>
        <select id={tagId} value={tag} onChange={(e) => onTag(e.currentTarget.value)}>
          <option value="">Todas las etiquetas</option>
          {tags.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
      <div className="field tag-filter">
        <label htmlFor={orderId} className="sr-only">
          Ordenar contactos
        </label>
        <select id={orderId} value={order} onChange={(e) => onOrder(e.currentTarget.value as ListOrder)}>
          {LIST_ORDERS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
