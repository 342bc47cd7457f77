import type { SessionResponse, User, UserResponse } from '@asistente/contracts';
import { Option, type Command } from 'commander';
import { contextOf, type CliContext } from '../lib/context.js';
import { ApiError, usageError } from '../lib/errors.js';
import { ask, askHidden, isInteractive } from '../lib/prompt.js';
import { deleteSession, readSession, saveSession } from '../lib/session-store.js';

interface LoginOptions {
  email?: string;
  password?: string;
}

const describeUser = (user: User) => `${user.firstName} ${user.lastName} <${user.email}>`;

export function registerAuthCommands(program: Command): void {
  program
    .command('login')
    .description('inicia sesión y guarda el token (0600) en ~/.config/asistente/config.json')
    .addOption(new Option('--email <email>', 'correo de la cuenta').env('ASISTENTE_EMAIL'))
    .addOption(new Option('--password <password>', 'contraseña (mejor por la variable o el prompt)').env('ASISTENTE_PASSWORD'))
    .action(async (options: LoginOptions, command: Command) => {
      const ctx = contextOf(command);
      const user = await login(ctx, options);
      ctx.out.result({ user }, () => `Sesión iniciada como ${describeUser(user)}`);
    });

  program
    .command('logout')
    .description('cierra la sesión en el servidor y borra el token guardado')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const stored = await readSession(ctx.apiUrl);
      if (ctx.explicitToken === undefined && stored === undefined) {
        ctx.out.result({ success: true }, () => 'No había ninguna sesión iniciada');
        return;
      }
      try {
        await (await ctx.authenticated()).post('auth/logout');
      } catch (error) {
        // An expired or already revoked token is as logged out as it gets.
        if (!(error instanceof ApiError && error.statusCode === 401)) throw error;
      }
      await deleteSession(ctx.apiUrl);
      ctx.out.result({ success: true }, () => 'Sesión cerrada');
    });

  program
    .command('whoami')
    .description('muestra la cuenta de la sesión actual')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const { user } = await (await ctx.authenticated()).get<UserResponse>('auth/me');
      ctx.out.result({ user }, () => describeUser(user));
    });
}

/**
 * Email and password (flags, variables, or asked on a terminal) sign in; with neither, a token from
 * --token / ASISTENTE_TOKEN is checked against the server and stored as the session.
 */
async function login(ctx: CliContext, options: LoginOptions): Promise<User> {
  if (options.email === undefined && options.password === undefined && ctx.explicitToken !== undefined) {
    const { user } = await (await ctx.authenticated()).get<UserResponse>('auth/me');
    await saveSession(ctx.apiUrl, { token: ctx.explicitToken, email: user.email });
    return user;
  }
  const email = options.email ?? (await askIfInteractive('Correo: ', 'el correo (--email o ASISTENTE_EMAIL)'));
  const password = options.password ?? (await askIfInteractive('Contraseña: ', 'la contraseña (--password o ASISTENTE_PASSWORD)', true));
  const session = await ctx.anonymous().post<SessionResponse>('auth/login', { email: email.trim(), password });
  await saveSession(ctx.apiUrl, { token: session.token, email: session.user.email });
  return session.user;
}

async function askIfInteractive(question: string, missing: string, hidden = false): Promise<string> {
  if (!isInteractive()) throw usageError(`Falta ${missing}`);
  return hidden ? askHidden(question) : ask(question);
}
