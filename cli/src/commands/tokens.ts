import {
  PERSONAL_TOKEN_LIFETIMES,
  PERSONAL_TOKEN_SCOPES,
  type CreatedPersonalToken,
  type PersonalToken,
  type PersonalTokenList,
  type PersonalTokenScope,
} from '@asistente/contracts';
import { Option, type Command } from 'commander';
import { contextOf } from '../lib/context.js';
import { usageError } from '../lib/errors.js';

const DATE = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium' });
const DATE_TIME = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' });

interface CreateOptions {
  scope: PersonalTokenScope[];
  expires?: number;
}

function scope(value: string, previous: PersonalTokenScope[] = []): PersonalTokenScope[] {
  if (!(PERSONAL_TOKEN_SCOPES as readonly string[]).includes(value)) {
    throw usageError(`Permiso no válido: ${value}. Usa ${PERSONAL_TOKEN_SCOPES.join(', ')}`);
  }
  return [...previous, value as PersonalTokenScope];
}

function lifetime(value: string): number {
  const days = Number(value);
  if (!(PERSONAL_TOKEN_LIFETIMES as readonly number[]).includes(days)) throw usageError('La caducidad debe ser de 30, 90 o 365 días');
  return days;
}

function describe(token: PersonalToken): string {
  const used = token.lastUsedAt ? `último uso ${DATE_TIME.format(new Date(token.lastUsedAt))}` : 'Nunca usado';
  const expires = token.expiresAt ? `caduca ${DATE.format(new Date(token.expiresAt))}` : 'Sin caducidad';
  const created = `creado ${DATE.format(new Date(token.createdAt))}`;
  return `${token.id}  ${token.name} (${token.prefix}…)\n  ${token.scopes.join(', ')}\n  ${created} · ${used} · ${expires}`;
}

/**
 * `asistente tokens`: the personal access tokens of the logged-in account (a session: a token cannot manage
 * tokens). The secret is printed once, when it is created, alone on stdout so a script can capture it.
 */
export function registerTokensCommands(program: Command): void {
  const tokens = program.command('tokens').description('tokens de acceso personal para scripts, integraciones y clientes de IA');

  tokens
    .command('list')
    .description('lista los tokens (nunca su secreto)')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const list = await (await ctx.authenticated()).get<PersonalTokenList>('auth/tokens');
      ctx.out.result(list, () => (list.data.length === 0 ? 'No tienes tokens de acceso' : list.data.map(describe).join('\n\n')));
    });

  tokens
    .command('create')
    .description('crea un token y lo muestra una sola vez')
    .argument('<nombre>', 'para qué es (p. ej. "Zapier")')
    .addOption(new Option('--scope <permiso>', `un permiso; repítelo para varios (${PERSONAL_TOKEN_SCOPES.join(', ')})`).argParser(scope).makeOptionMandatory())
    .addOption(new Option('--expires <días>', 'caduca a los 30, 90 o 365 días; sin ella no caduca').argParser(lifetime))
    .action(async (name: string, options: CreateOptions, command: Command) => {
      const ctx = contextOf(command);
      const body = { name, scopes: options.scope, ...(options.expires ? { expiresInDays: options.expires } : {}) };
      const created = await (await ctx.authenticated()).post<CreatedPersonalToken>('auth/tokens', body);
      ctx.out.notice(`Token «${created.name}» creado. Cópialo ahora: no se volverá a mostrar.`);
      ctx.out.result(created, () => created.token);
    });

  tokens
    .command('revoke')
    .description('revoca un token al momento')
    .argument('<id>', 'el id que muestra "asistente tokens list"')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      await (await ctx.authenticated()).delete<unknown>(`auth/tokens/${encodeURIComponent(id)}`);
      ctx.out.result({ success: true, id }, () => 'Token revocado');
    });
}
