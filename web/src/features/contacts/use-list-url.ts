import { useLocation, useSearch } from 'wouter';

/** List orders offered, as `<field>-<direction>`; the first is the default and stays out of the URL. */
export const LIST_ORDERS = [
  { value: 'createdAt-desc', label: 'Más recientes' },
  { value: 'createdAt-asc', label: 'Más antiguos' },
  { value: 'name-asc', label: 'Nombre (A-Z)' },
  { value: 'name-desc', label: 'Nombre (Z-A)' },
  { value: 'company-asc', label: 'Empresa (A-Z)' },
  { value: 'company-desc', label: 'Empresa (Z-A)' },
] as const;
export type ListOrder = (typeof LIST_ORDERS)[number]['value'];

export interface ListView {
  search: string;
  tag: string;
  page: number;
  order: ListOrder;
}

const DEFAULT_ORDER: ListOrder = 'createdAt-desc';

function isOrder(value: string | null): value is ListOrder {
  return LIST_ORDERS.some((o) => o.value === value);
}

/** The address of a list view (defaults left out). */
export function listHref(view: Partial<ListView>): string {
  const query = new URLSearchParams();
  if (view.search) query.set('q', view.search);
  if (view.tag) query.set('etiqueta', view.tag);
  if (view.page && view.page > 1) query.set('pagina', String(view.page));
  if (view.order && view.order !== DEFAULT_ORDER) query.set('orden', view.order);
  const text = query.toString();
  return text ? `/contacts?${text}` : '/contacts';
}

/** A saved sort (`name` + `asc`) as a list order, when it is one the list offers. */
export function orderOf(sort: string, direction: string): ListOrder {
  const value = `${sort}-${direction}`;
  return isOrder(value) ? value : DEFAULT_ORDER;
}

/**
 * The list's search, tag, page and order live in the URL (?q=&etiqueta=&pagina=&orden=), so a view
 * can be shared and survives a reload and the back button. `update` pushes a history entry, or
 * replaces the current one (typing in the search box must not fill the history).
 */
export function useListUrl(): ListView & { update: (patch: Partial<ListView>, replace?: boolean) => void } {
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const page = Number(params.get('pagina'));
  const order = params.get('orden');
  const view: ListView = {
    search: params.get('q') ?? '',
    tag: params.get('etiqueta') ?? '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    order: isOrder(order) ? order : DEFAULT_ORDER,
  };
  const update = (patch: Partial<ListView>, replace = false) => navigate(listHref({ ...view, ...patch }), { replace });
  return { ...view, update };
}
