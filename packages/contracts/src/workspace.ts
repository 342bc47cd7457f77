import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_PATTERN } from './common.js';
import { WorkspaceRoleSchema } from './workspace-roles.js';

/** The workspace a session acts in, and the caller's role in it. */
export const Workspace = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  role: WorkspaceRoleSchema,
});
export type Workspace = Static<typeof Workspace>;

export const WorkspaceList = Type.Array(Workspace);
export type WorkspaceList = Static<typeof WorkspaceList>;

export const UpdateWorkspaceBody = Type.Object(
  {
    name: Type.String({
      maxLength: 120,
      messages: { required: 'El nombre del espacio de trabajo es requerido', maxLength: 'El nombre no puede superar los 120 caracteres' },
    }),
  },
  { additionalProperties: false },
);
export type UpdateWorkspaceBody = Static<typeof UpdateWorkspaceBody>;

export const WorkspaceMember = Type.Object({
  userId: Type.String({ format: 'uuid' }),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  role: WorkspaceRoleSchema,
  joinedAt: Type.String({ format: 'date-time' }),
  lastActiveAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type WorkspaceMember = Static<typeof WorkspaceMember>;

export const WorkspaceMemberList = Type.Array(WorkspaceMember);
export type WorkspaceMemberList = Static<typeof WorkspaceMemberList>;

export const SwitchWorkspaceBody = Type.Object(
  { workspaceId: Type.String({ format: 'uuid', messages: { required: 'Falta el espacio de trabajo', format: 'Espacio de trabajo inválido' } }) },
  { additionalProperties: false },
);
export type SwitchWorkspaceBody = Static<typeof SwitchWorkspaceBody>;

const ROLE_INVALID = { messages: { const: 'El rol debe ser admin o agent', type: 'El rol debe ser admin o agent' } };

/** A role given to someone joining or changing: never the owner's (ownership moves by transfer). */
export const MemberRole = Type.Union([Type.Literal('admin', ROLE_INVALID), Type.Literal('agent', ROLE_INVALID)]);
export type MemberRole = Static<typeof MemberRole>;

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;
/** Invitations one workspace may send in a day (a mailer is not a spam cannon). */
export const INVITATIONS_PER_DAY = 20;

export const CreateInvitationBody = Type.Object(
  {
    email: Type.String({
      maxLength: 254,
      pattern: EMAIL_PATTERN,
      messages: { required: 'El correo es requerido', pattern: 'Correo inválido', maxLength: 'Correo inválido' },
    }),
    role: MemberRole,
  },
  { additionalProperties: false },
);
export type CreateInvitationBody = Static<typeof CreateInvitationBody>;

/** A pending invitation, with its link (the owner may send it by WhatsApp when no mailer is configured). */
export const WorkspaceInvitation = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  role: MemberRole,
  expiresAt: Type.String({ format: 'date-time' }),
  createdAt: Type.String({ format: 'date-time' }),
  link: Type.String(),
});
export type WorkspaceInvitation = Static<typeof WorkspaceInvitation>;

export const WorkspaceInvitationList = Type.Array(WorkspaceInvitation);
export type WorkspaceInvitationList = Static<typeof WorkspaceInvitationList>;

export const InvitationTokenParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, messages: { minLength: 'Falta el código de la invitación', maxLength: 'La invitación no existe o ha caducado' } }),
});
export type InvitationTokenParams = Static<typeof InvitationTokenParams>;

/** What the invitation page shows before anyone signs in. */
export const InvitationPreview = Type.Object({
  workspace: Type.Object({ name: Type.String() }),
  invitedBy: Type.Object({ firstName: Type.String(), lastName: Type.String() }),
  role: MemberRole,
  email: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
  /** The invited address already has an account: it signs in and joins, rather than creating one. */
  hasAccount: Type.Boolean(),
});
export type InvitationPreview = Static<typeof InvitationPreview>;

/** With a session of the invited address: `{ token }` alone. A new person: their name and a password too. */
export const AcceptInvitationBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, messages: { required: 'Falta el código de la invitación', minLength: 'Falta el código de la invitación' } }),
    firstName: Type.Optional(Type.String({ maxLength: 100 })),
    lastName: Type.Optional(Type.String({ maxLength: 100 })),
    password: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type AcceptInvitationBody = Static<typeof AcceptInvitationBody>;

export const MemberParams = Type.Object({
  userId: Type.String({ format: 'uuid', messages: { format: 'Miembro no encontrado' } }),
});
export type MemberParams = Static<typeof MemberParams>;

export const UpdateMemberBody = Type.Object({ role: MemberRole }, { additionalProperties: false });
export type UpdateMemberBody = Static<typeof UpdateMemberBody>;

/** The owner hands the workspace to an admin, confirming with their password. */
export const TransferWorkspaceBody = Type.Object(
  {
    userId: Type.String({ format: 'uuid', messages: { required: 'Elige a quién transferir el espacio de trabajo', format: 'Miembro no encontrado' } }),
    password: Type.String({ maxLength: 200, messages: { required: 'La contraseña es requerida' } }),
  },
  { additionalProperties: false },
);
export type TransferWorkspaceBody = Static<typeof TransferWorkspaceBody>;
