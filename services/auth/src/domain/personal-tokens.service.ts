import { randomUUID } from 'node:crypto';
import {
  PERSONAL_TOKENS_PER_USER,
  type CreatedPersonalToken,
  type CreatePersonalTokenBody,
  type PersonalToken,
} from '@asistente/contracts';
import {
  badRequest,
  conflict,
  newPersonalToken,
  notFound,
  securityActivityEvent,
  unauthorized,
  type ActingMember,
  type Outbox,
  type Revocations,
  type SecurityClient,
  type Sql,
} from '@asistente/kit';
import type { PersonalTokensRepository, SessionIdentity } from './personal-tokens.repository.js';

const DAY_MS = 86_400_000;


export interface PersonalTokensServiceDeps {
  sql: Sql;
  tokens: PersonalTokensRepository;
  outbox: Outbox;
  /** Tells every process of a revocation, so live streams opened with the token end with it. */
  revocations: Revocations;
}

/**
 * The owner's personal access tokens: created with the scopes and lifetime chosen, shown once, stored as a
 * hash; each creation and revocation is a line of the security log, written with the change.
 */
export class PersonalTokensService {
  constructor(private readonly deps: PersonalTokensServiceDeps) {}

  /**
   * A token of `member` in the workspace it acts in, with its role there as the ceiling. `session`: the one
   * asking, refused if a password change ended it while the creation waited.
   */
  async create(member: ActingMember, session: SessionIdentity, input: CreatePersonalTokenBody, client: SecurityClient, now = Date.now()): Promise<CreatedPersonalToken> {
    const name = input.name.trim();
    if (!name) throw badRequest('El nombre del token es requerido');
    const { token, hash, prefix } = newPersonalToken();
    const id = randomUUID();
    const expiresAt = input.expiresInDays ? new Date(now + input.expiresInDays * DAY_MS) : null;
    const { sql, tokens, outbox } = this.deps;
    const { id: userId, workspaceId, role } = member;
    const created = await sql.begin(async (tx) => {
      const inserted = await tokens.insert(tx, { id, userId, workspaceId, role, name, scopes: input.scopes, tokenHash: hash, prefix, expiresAt }, PERSONAL_TOKENS_PER_USER, session);
      if (inserted === 'inserted') await outbox.append(tx, [securityActivityEvent(workspaceId, 'token.created', client, { tokenName: name })]);
      return inserted;
    });
    if (created === 'ended') throw unauthorized();
    if (created === 'full') throw conflict(`Ya tienes ${PERSONAL_TOKENS_PER_USER} tokens de acceso: revoca alguno antes de crear otro`, 'TOO_MANY_TOKENS');
    return { id, name, scopes: input.scopes, expiresAt: expiresAt?.toISOString() ?? null, token };
  }

  list(member: ActingMember): Promise<PersonalToken[]> {
    return this.deps.tokens.list(member.id, member.workspaceId);
  }

  /** Deleting the row is the revocation: the gateway reads it on every request, at every replica. */
  async revoke(member: ActingMember, id: string, client: SecurityClient): Promise<void> {
    const { sql, tokens, outbox, revocations } = this.deps;
    const userId = member.id;
    const revoked = await sql.begin(async (tx) => {
      const name = await tokens.delete(tx, userId, member.workspaceId, id);
      if (name !== undefined) await outbox.append(tx, [securityActivityEvent(member.workspaceId, 'token.revoked', client, { tokenName: name })]);
      return name !== undefined;
    });
    if (!revoked) throw notFound('Token no encontrado');
    revocations.personalTokenRevoked(userId, id);
  }
}
