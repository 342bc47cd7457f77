import { CONTACT_VIEWS_MAX, type ContactView, type ContactViewBody } from '@asistente/contracts';
import { badRequest, conflict, notFound, type Sql } from '@asistente/kit';

const UNIQUE_VIOLATION = '23505';

interface ViewRow {
  id: string;
  name: string;
  search: string;
  tag: string;
  sort: ContactView['sort'];
  direction: ContactView['order'];
  createdAt: Date;
}

function toView(row: ViewRow): ContactView {
  return {
    id: row.id,
    name: row.name,
    search: row.search,
    tag: row.tag,
    sort: row.sort,
    order: row.direction,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Named searches of the contacts list (search + tag + sort), each user's own. */
export class SavedViews {
  constructor(private readonly sql: Sql) {}

  async list(userId: string): Promise<ContactView[]> {
    const rows = await this.sql<ViewRow[]>`
      select id, name, search, tag, sort, direction, created_at as "createdAt"
      from contacts.saved_views where user_id = ${userId} order by lower(name), id`;
    return rows.map(toView);
  }

  async create(userId: string, body: ContactViewBody): Promise<ContactView> {
    const name = body.name.trim();
    const sort = body.sort ?? 'createdAt';
    // The list's own default: dates newest first, names and companies A-Z.
    const direction = body.order ?? (sort === 'createdAt' ? 'desc' : 'asc');
    try {
      return await this.sql.begin(async (tx) => {
        const [count] = await tx<{ n: string }[]>`select count(*) as n from contacts.saved_views where user_id = ${userId}`;
        if (Number(count?.n ?? 0) >= CONTACT_VIEWS_MAX) {
          throw badRequest(`Puedes guardar como máximo ${CONTACT_VIEWS_MAX} vistas`, 'CONTACT_VIEWS_LIMIT');
        }
        const [row] = await tx<ViewRow[]>`
          insert into contacts.saved_views (user_id, name, search, tag, sort, direction)
          values (${userId}, ${name}, ${body.search?.trim() ?? ''}, ${body.tag?.trim() ?? ''}, ${sort}, ${direction})
          returning id, name, search, tag, sort, direction, created_at as "createdAt"`;
        return toView(row!);
      });
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        throw conflict('Ya tienes una vista con ese nombre', 'CONTACT_VIEW_NAME_TAKEN');
      }
      throw error;
    }
  }

  async delete(userId: string, id: string): Promise<void> {
    const gone = await this.sql`delete from contacts.saved_views where id = ${id} and user_id = ${userId}`;
    if (gone.count === 0) throw notFound('Vista no encontrada');
  }
}
