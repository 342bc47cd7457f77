import { randomUUID } from 'node:crypto';
import { AppError } from '@asistente/kit';
import type { CreatedMeeting, MeetingProvider, MeetingRequest } from '../../src/domain/meetings/meeting-port.js';

/** A meeting provider kept in memory: what a new provider implements, and nothing more. */
export class InMemoryMeetings implements MeetingProvider {
  readonly name = 'memoria';
  readonly account = 'la sala de reuniones de prueba';
  readonly created: CreatedMeeting[] = [];
  /** While false, the provider cannot be reached. */
  reachable = true;
  private readonly members = new Set<string>();

  connect(userId: string): void {
    this.members.add(userId);
  }

  async connected(userId: string): Promise<boolean> {
    return this.members.has(userId);
  }

  async create(_userId: string, request: MeetingRequest): Promise<CreatedMeeting> {
    if (!this.reachable) throw new AppError(503, 'MEMORY_UNREACHABLE', 'La sala de reuniones de prueba no responde. Inténtalo de nuevo en unos minutos.');
    const id = randomUUID();
    const { description: _description, ...meeting } = request;
    const created = { ...meeting, id, provider: this.name, joinUrl: `https://reuniones.example/${id}` };
    this.created.push(created);
    return created;
  }
}
