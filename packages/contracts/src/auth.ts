import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_PATTERN } from './common.js';
import { Workspace } from './workspace.js';

export const User = Type.Object({
  id: Type.String({ format: 'uuid' }),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  company: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type User = Static<typeof User>;

const optionalText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

/** Spanish messages are the spec's (section 5); trimming and minimum lengths are checked by the auth domain. */
export const RegisterBody = Type.Object(
  {
    firstName: Type.String({ maxLength: 100, messages: { required: 'El nombre es requerido' } }),
    lastName: Type.String({ maxLength: 100, messages: { required: 'El apellido es requerido' } }),
    email: Type.String({
      maxLength: 254,
      pattern: EMAIL_PATTERN,
      messages: { required: 'El correo es requerido', pattern: 'Correo inválido' },
    }),
    password: Type.String({ maxLength: 200, messages: { required: 'La contraseña es requerida' } }),
    company: optionalText(120),
    phone: optionalText(40),
  },
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Type.Object(
  {
    email: Type.String({
      maxLength: 254,
      pattern: EMAIL_PATTERN,
      messages: { required: 'El correo es requerido', pattern: 'Correo electrónico inválido' },
    }),
    password: Type.String({ maxLength: 200, messages: { required: 'La contraseña es requerida' } }),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const UpdateProfileBody = Type.Object(
  {
    firstName: Type.String({ maxLength: 100, messages: { required: 'El nombre es requerido' } }),
    lastName: Type.String({ maxLength: 100, messages: { required: 'El apellido es requerido' } }),
    company: optionalText(120),
    phone: optionalText(40),
  },
  { additionalProperties: false },
);
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

export const ChangePasswordBody = Type.Object(
  {
    currentPassword: Type.String({ maxLength: 200, messages: { required: 'La contraseña actual es requerida' } }),
    newPassword: Type.String({ maxLength: 200, messages: { required: 'La nueva contraseña es requerida' } }),
  },
  { additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

/** A session opened (register, login, switch, an invitation accepted): the person, its token and the workspace it acts in. */
export const SessionResponse = Type.Object({ user: User, token: Type.String(), workspace: Workspace });
export type SessionResponse = Static<typeof SessionResponse>;

export const UserResponse = Type.Object({ user: User });
export type UserResponse = Static<typeof UserResponse>;

/** `GET /auth/me`: the spec's profile and the workspace the session acts in, with the caller's role. */
export const MeResponse = Type.Object({ user: User, workspace: Workspace });
export type MeResponse = Static<typeof MeResponse>;

/** Asks for a password reset link by mail; answered 202 whether or not an account has the address. */
export const ForgotPasswordBody = Type.Object(
  {
    email: Type.String({
      maxLength: 254,
      pattern: EMAIL_PATTERN,
      messages: { required: 'El correo es requerido', pattern: 'Correo electrónico inválido' },
    }),
  },
  { additionalProperties: false },
);
export type ForgotPasswordBody = Static<typeof ForgotPasswordBody>;

export const ForgotPasswordResponse = Type.Object({ message: Type.String() });
export type ForgotPasswordResponse = Static<typeof ForgotPasswordResponse>;

/** Sets a new password with the token of a reset link (it works once). */
export const ResetPasswordBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, messages: { required: 'Falta el código del enlace', minLength: 'Falta el código del enlace' } }),
    newPassword: Type.String({ maxLength: 200, messages: { required: 'La nueva contraseña es requerida' } }),
  },
  { additionalProperties: false },
);
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

/** Whether the server can mail reset links (a system mailer is configured); without one, the owner asks the administrator. */
export const PasswordResetAvailability = Type.Object({ available: Type.Boolean() });
export type PasswordResetAvailability = Static<typeof PasswordResetAvailability>;
