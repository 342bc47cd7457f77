import type { AutoReply, AutoReplyBody } from '@asistente/contracts';
import { badRequest, conflict, notFound } from '@asistente/kit';
import type { AutoRepliesRepository, AutoReplyRow } from './auto-replies.repository.js';
import { fold } from './keyword-match.js';

const UNIQUE_VIOLATION = '23505';
const REQUIRED = 'Completa palabra clave y respuesta';
const NOT_FOUND = 'Respuesta automática no encontrada';

function duplicateKeyword(error: unknown): never {
  if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw conflict('Ya existe una respuesta con esa palabra clave', 'AUTO_REPLY_EXISTS');
  throw error;
}

export function toAutoReply(row: AutoReplyRow): AutoReply {
  return { id: row.id, keyword: row.keyword, response: row.response, active: row.active, createdAt: row.createdAt.toISOString() };
}

function fields(keyword: string | undefined, response: string | undefined, active: boolean) {
  const k = keyword?.trim() ?? '';
  const r = response?.trim() ?? '';
  if (!k || !r || !fold(k)) throw badRequest(REQUIRED, 'VALIDATION_ERROR');
  return { keyword: k, keywordFolded: fold(k), response: r, active };
}

export class AutoRepliesService {
  constructor(private readonly replies: AutoRepliesRepository) {}

  async list(userId: string): Promise<AutoReply[]> {
    return (await this.replies.list(userId)).map(toAutoReply);
  }

  async create(userId: string, body: AutoReplyBody): Promise<AutoReply> {
    const f = fields(body.keyword, body.response, body.active ?? body.isActive ?? true);
    return toAutoReply(await this.replies.insert(userId, f).catch(duplicateKeyword));
  }

  async update(userId: string, id: string, body: AutoReplyBody): Promise<AutoReply> {
    const current = await this.replies.find(userId, id);
    if (!current) throw notFound(NOT_FOUND);
    const f = fields(body.keyword ?? current.keyword, body.response ?? current.response, body.active ?? body.isActive ?? current.active);
    const row = await this.replies.update(userId, id, f).catch(duplicateKeyword);
    if (!row) throw notFound(NOT_FOUND);
    return toAutoReply(row);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.replies.delete(userId, id))) throw notFound(NOT_FOUND);
  }
}
