import { randomBytes } from 'node:crypto';
import type { WidgetBody, WidgetPatch, WidgetSettings } from '@asistente/contracts';
import { AppError, conflict } from '@asistente/kit';
import type { WidgetRow, WidgetsRepository } from './widgets.repository.js';

export const WIDGET_NOT_FOUND = 'Todavía no has creado el chat web';
export const WIDGET_EXISTS = 'El chat web ya está creado: cámbialo en lugar de crear otro';

/** The snippet the owner pastes in their website, before `</body>`. */
export const snippetOf = (publicUrl: string, publicKey: string): string =>
  `<script src="${publicUrl.replace(/\/+$/, '')}/widget.js" data-key="${publicKey}" async></script>`;

/** "Chat web" in Configuración: the workspace's one widget, made and changed by its owner or an admin. */
export class WidgetSettingsService {
  constructor(private readonly deps: { widgets: WidgetsRepository; publicUrl: string }) {}

  async get(workspaceId: string): Promise<WidgetSettings> {
    return this.toSettings(await this.found(this.deps.widgets.ofWorkspace(workspaceId)));
  }

  async create(workspaceId: string, body: WidgetBody): Promise<WidgetSettings> {
    // 16 random bytes: 22 base64url characters, as the key's pattern says.
    const created = await this.deps.widgets.create(workspaceId, `wk_${randomBytes(16).toString('base64url')}`, body);
    if (!created) throw conflict(WIDGET_EXISTS, 'WIDGET_EXISTS');
    return this.toSettings(created);
  }

  async update(workspaceId: string, patch: WidgetPatch): Promise<WidgetSettings> {
    return this.toSettings(await this.found(this.deps.widgets.update(workspaceId, patch)));
  }

  private async found(row: Promise<WidgetRow | undefined>): Promise<WidgetRow> {
    const widget = await row;
    if (!widget) throw new AppError(404, 'WIDGET_NOT_FOUND', WIDGET_NOT_FOUND);
    return widget;
  }

  private toSettings(row: WidgetRow): WidgetSettings {
    return {
      publicKey: row.publicKey,
      name: row.name,
      color: row.color,
      greeting: row.greeting,
      allowedOrigins: row.allowedOrigins,
      enabled: row.enabled,
      snippet: snippetOf(this.deps.publicUrl, row.publicKey),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}
