import type { WidgetBody, WidgetPatch } from '@asistente/contracts';
import type { Sql } from '@asistente/kit';

export interface WidgetRow {
  userId: string;
  publicKey: string;
  name: string;
  color: string;
  greeting: string;
  allowedOrigins: string[];
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface VisitorRow {
  id: string;
  userId: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  contactId: string | null;
}

const WIDGET = 'user_id, public_key, name, color, greeting, allowed_origins, enabled, created_at, updated_at';
const VISITOR = 'id, user_id, name, email, phone, contact_id';

/** inbox.widgets (one per workspace) and inbox.widget_visitors. */
export class WidgetsRepository {
  constructor(private readonly sql: Sql) {}

  async ofWorkspace(workspaceId: string): Promise<WidgetRow | undefined> {
    const [row] = await this.sql<WidgetRow[]>`select ${this.sql.unsafe(WIDGET)} from inbox.widgets where user_id = ${workspaceId}`;
    return row;
  }

  async byKey(publicKey: string): Promise<WidgetRow | undefined> {
    const [row] = await this.sql<WidgetRow[]>`select ${this.sql.unsafe(WIDGET)} from inbox.widgets where public_key = ${publicKey}`;
    return row;
  }

  /** The workspace's widget, unless it has one already (then undefined). */
  async create(workspaceId: string, publicKey: string, body: WidgetBody): Promise<WidgetRow | undefined> {
    const [row] = await this.sql<WidgetRow[]>`
      insert into inbox.widgets (user_id, public_key, name, color, greeting, allowed_origins)
      values (${workspaceId}, ${publicKey}, ${body.name.trim()}, ${body.color.toLowerCase()}, ${body.greeting.trim()}, ${body.allowedOrigins})
      on conflict (user_id) do nothing
      returning ${this.sql.unsafe(WIDGET)}`;
    return row;
  }

  async update(workspaceId: string, patch: WidgetPatch): Promise<WidgetRow | undefined> {
    const [row] = await this.sql<WidgetRow[]>`
      update inbox.widgets set
        name = coalesce(${patch.name?.trim() ?? null}, name),
        color = coalesce(${patch.color?.toLowerCase() ?? null}, color),
        greeting = coalesce(${patch.greeting?.trim() ?? null}, greeting),
        allowed_origins = coalesce(${patch.allowedOrigins ?? null}::text[], allowed_origins),
        enabled = coalesce(${patch.enabled ?? null}::boolean, enabled),
        updated_at = now()
      where user_id = ${workspaceId}
      returning ${this.sql.unsafe(WIDGET)}`;
    return row;
  }

  async addVisitor(workspaceId: string, id: string): Promise<void> {
    await this.sql`insert into inbox.widget_visitors (id, user_id) values (${id}, ${workspaceId}) on conflict (id) do nothing`;
  }

  async visitor(workspaceId: string, id: string): Promise<VisitorRow | undefined> {
    const [row] = await this.sql<VisitorRow[]>`
      select ${this.sql.unsafe(VISITOR)} from inbox.widget_visitors where user_id = ${workspaceId} and id = ${id}`;
    return row;
  }

  async saveProfile(workspaceId: string, id: string, profile: Pick<VisitorRow, 'name' | 'email' | 'phone' | 'contactId'>): Promise<VisitorRow | undefined> {
    const [row] = await this.sql<VisitorRow[]>`
      update inbox.widget_visitors set name = ${profile.name}, email = ${profile.email}, phone = ${profile.phone}, contact_id = ${profile.contactId}
      where user_id = ${workspaceId} and id = ${id}
      returning ${this.sql.unsafe(VISITOR)}`;
    return row;
  }
}
