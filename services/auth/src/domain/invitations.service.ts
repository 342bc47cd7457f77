import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  INVITATION_DAYS,
  INVITATIONS_PER_DAY,
  type AcceptInvitationBody,
  type CreateInvitationBody,
  type InvitationPreview,
  type User,
  type Workspace,
  type WorkspaceInvitation,
} from '@asistente/contracts';
import {
  AppError,
  conflict,
  createEvent,
  notFound,
  unauthorized,
  type ActingMember,
  type Outbox,
  type Platform,
  type SecretBox,
  type Sql,
  type TransactionSql,
} from '@asistente/kit';
import { INVITATION_TOKEN_COLUMN } from './secret-columns.js';
import { invitationMail } from './invitation-mail.js';
import type { InvitationRow, InvitationsRepository } from './invitations.repository.js';
import type { PasswordHasher } from './passwords.js';
import { newPassword, normalizeEmail, personName } from './rules.js';
import type { SystemMailer } from './system-mailer.js';
import { toUser } from './user.js';
import type { UsersRepository } from './users.repository.js';
import type { WorkspacesRepository } from './workspaces.repository.js';

export const INVITATION_NOT_FOUND = 'La invitación no existe o ha caducado';
const DAY_MS = 86_400_000;


export interface InvitationsDeps {
  sql: Sql;
  invitations: InvitationsRepository;
  workspaces: WorkspacesRepository;
  users: UsersRepository;
  hasher: PasswordHasher;
  secrets: SecretBox;
  outbox: Outbox;
  /** Undefined without SMTP_URL: the answer carries the link, and the owner sends it as they like. */
  mailer: SystemMailer | undefined;
  publicUrl: string;
  /** People one workspace may hold, members and open invitations together. */
  maxMembers: number;
  log: Platform['log'];
}

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Invitations to a workspace: a single-use link for 7 days, mailed by the system mailer when there is one and
 * answered either way; accepted by a new person (who creates their account with it) or by someone signed in
 * with the invited address.
 */
export class InvitationsService {
  /** Mails on their way: the answer never waits for the SMTP server. */
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly deps: InvitationsDeps) {}

  async invite(member: ActingMember, input: CreateInvitationBody, now = Date.now()): Promise<WorkspaceInvitation> {
    const { sql, invitations, workspaces, secrets, maxMembers } = this.deps;
    // Addresses are matched without case everywhere (sign-in, registration): the invitation keeps one spelling.
    const email = normalizeEmail(input.email).toLowerCase();
    const token = randomBytes(32).toString('base64url');
    const id = randomUUID();
    const row = await sql.begin(async (tx) => {
      if (!(await workspaces.lock(tx, member.workspaceId))) throw unauthorized();
      if (await workspaces.hasMemberWithEmail(tx, member.workspaceId, email)) {
        throw conflict('Esa persona ya es miembro del espacio de trabajo', 'ALREADY_MEMBER');
      }
      if ((await invitations.sentSince(tx, member.workspaceId, new Date(now - DAY_MS))) >= INVITATIONS_PER_DAY) {
        throw new AppError(429, 'TOO_MANY_INVITATIONS', `Has enviado el máximo de ${INVITATIONS_PER_DAY} invitaciones por hoy. Inténtalo mañana.`);
      }
      const people = (await workspaces.memberCount(tx, member.workspaceId)) + (await invitations.openCount(tx, member.workspaceId, email));
      if (people >= maxMembers) throw workspaceFull(maxMembers);
      await invitations.cancelFor(tx, member.workspaceId, email);
      return invitations.insert(tx, {
        id,
        workspaceId: member.workspaceId,
        email,
        role: input.role,
        tokenHash: hashOf(token),
        tokenEnc: secrets.seal(token, this.secretContext(member.workspaceId)),
        invitedBy: member.id,
        expiresAt: new Date(now + INVITATION_DAYS * DAY_MS),
      });
    });
    const invitation = this.toInvitation(row, token);
    await this.mail(member, invitation);
    return invitation;
  }

  async list(member: ActingMember): Promise<WorkspaceInvitation[]> {
    const rows = await this.deps.invitations.listOpen(member.workspaceId);
    return rows.map((row) => this.toInvitation(row, this.deps.secrets.open(row.tokenEnc, this.secretContext(row.workspaceId))));
  }

  async cancel(member: ActingMember, id: string): Promise<void> {
    if (!(await this.deps.invitations.cancel(member.workspaceId, id))) throw notFound('Invitación no encontrada');
  }

  async preview(token: string): Promise<InvitationPreview> {
    const found = await this.deps.invitations.findOpen(hashOf(token));
    if (!found) throw notFound(INVITATION_NOT_FOUND);
    return {
      workspace: { name: found.workspaceName },
      invitedBy: { firstName: found.inviterFirstName ?? '', lastName: found.inviterLastName ?? '' },
      role: found.role,
      email: found.email,
      expiresAt: found.expiresAt.toISOString(),
      hasAccount: (await this.deps.users.findByEmail(found.email)) !== undefined,
    };
  }

  /**
   * Joins the invited person: `session`, when they are signed in (it must be the invited address); otherwise a
   * new account made with the body's name and password, in the same transaction as the join. The link is spent
   * either way, once.
   */
  async accept(input: AcceptInvitationBody, session: Pick<ActingMember, 'id'> | undefined): Promise<{ user: User; workspace: Workspace }> {
    const { sql, invitations, users, hasher, outbox } = this.deps;
    const found = await invitations.findOpen(hashOf(input.token));
    if (!found) throw notFound(INVITATION_NOT_FOUND);
    const existing = session ? await users.findById(session.id) : await users.findByEmail(found.email);
    if (session && (!existing || existing.email.toLowerCase() !== found.email.toLowerCase())) {
      throw new AppError(403, 'INVITATION_FOR_ANOTHER', `Esta invitación es para ${found.email}: inicia sesión con ese correo para aceptarla`);
    }
    if (!session && existing) {
      throw accountExists();
    }
    const newcomer = session ? undefined : await this.newcomer(input, hasher);
    return sql.begin(async (tx) => {
      const person = existing ?? (newcomer && (await users.insert(tx, { ...newcomer, email: found.email, company: null, phone: null })));
      if (!person) throw accountExists();
      if (!existing) await outbox.append(tx, [createEvent('auth.user.registered', person.id, {})]);
      const workspace = await this.join(tx, found.id, found.workspaceId, found.workspaceName, person.id);
      return { user: toUser(person), workspace };
    });
  }

  /** Spends the link and adds the member, under the workspace's lock (the member limit holds under races). */
  private async join(tx: TransactionSql, invitationId: string, workspaceId: string, name: string, userId: string): Promise<Workspace> {
    const { invitations, workspaces, maxMembers } = this.deps;
    if (!(await workspaces.lock(tx, workspaceId))) throw notFound(INVITATION_NOT_FOUND);
    const claimed = await invitations.claim(tx, invitationId);
    if (!claimed) throw notFound(INVITATION_NOT_FOUND);
    const already = await workspaces.roleOf(workspaceId, userId, tx);
    if (already) return { id: workspaceId, name, role: already };
    if ((await workspaces.memberCount(tx, workspaceId)) >= maxMembers) throw workspaceFull(maxMembers);
    await workspaces.addMember(tx, workspaceId, userId, claimed.role);
    return { id: workspaceId, name, role: claimed.role };
  }

  private async newcomer(input: AcceptInvitationBody, hasher: PasswordHasher) {
    const firstName = personName(input.firstName ?? '', 'El nombre es requerido');
    const lastName = personName(input.lastName ?? '', 'El apellido es requerido');
    const passwordHash = await hasher.hash(newPassword(input.password ?? ''));
    return { firstName, lastName, passwordHash };
  }

  private async mail(member: ActingMember, invitation: WorkspaceInvitation): Promise<void> {
    const { mailer, users, workspaces, log } = this.deps;
    if (!mailer) return;
    const inviter = await users.findById(member.id);
    const workspace = await workspaces.find(member.workspaceId, member.id);
    const who = inviter ? `${inviter.firstName} ${inviter.lastName}`.trim() : 'Tu equipo';
    const sent = mailer
      .send(invitationMail(invitation.email, who, workspace?.name ?? '', invitation.role, invitation.link, INVITATION_DAYS))
      // The link is a secret: the log names the invitation, never the mail's content.
      .catch((error: unknown) => log.warn({ err: error, invitationId: invitation.id }, 'invitation mail not sent'))
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  /** Shutdown waits for the mails already handed to the SMTP server, then closes the connection. */
  async close(): Promise<void> {
    await Promise.all(this.sending);
    this.deps.mailer?.close();
  }

  private secretContext(workspaceId: string) {
    return { userId: workspaceId, table: INVITATION_TOKEN_COLUMN.table, column: INVITATION_TOKEN_COLUMN.column };
  }

  private toInvitation(row: InvitationRow, token: string): WorkspaceInvitation {
    return {
      id: row.id,
      email: row.email,
      role: row.role,
      expiresAt: row.expiresAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
      link: `${this.deps.publicUrl.replace(/\/+$/, '')}/invitacion?token=${token}`,
    };
  }
}

const accountExists = () => conflict('Ya tienes una cuenta con este correo: inicia sesión para aceptar la invitación', 'ACCOUNT_EXISTS');
const workspaceFull = (max: number) => conflict(`El espacio de trabajo admite como máximo ${max} personas`, 'WORKSPACE_FULL');
