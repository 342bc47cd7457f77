import type { OpenAiKeySaved, OpenAiKeyStatus } from '@asistente/contracts';
import { Option, type Command } from 'commander';
import { contextOf } from '../lib/context.js';
import { usageError } from '../lib/errors.js';
import { askHidden, isInteractive, readStdin } from '../lib/prompt.js';

const KEY_PATH = 'ai/provider/openai/key';

export function registerOpenAiCommands(program: Command): void {
  const openai = program.command('openai').description('tu API key de OpenAI (se guarda cifrada; solo se muestran los 4 últimos caracteres)');

  openai
    .command('set-key')
    .description('guarda la API key: del argumento, de --key / OPENAI_API_KEY, de stdin o preguntada sin eco')
    .argument('[key]', 'la API key (queda en el historial de la shell: mejor por variable o stdin)')
    .addOption(new Option('--key <key>', 'la API key').env('OPENAI_API_KEY'))
    .action(async (argument: string | undefined, options: { key?: string }, command: Command) => {
      const ctx = contextOf(command);
      const key = (argument ?? options.key ?? (await keyFromStdin())).trim();
      // The server says the same; checking here sends nothing when there is nothing to send.
      if (key === '') throw usageError('Ingresa tu API key');
      const saved = await (await ctx.authenticated()).put<OpenAiKeySaved>(KEY_PATH, { apiKey: key });
      ctx.out.result(saved, () => `API key guardada (••••${saved.last4})`);
    });

  openai
    .command('status')
    .description('dice si hay una API key guardada')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const status = await (await ctx.authenticated()).get<OpenAiKeyStatus>(KEY_PATH);
      ctx.out.result(status, () => (status.exists ? `API key guardada (••••${status.last4 ?? ''})` : 'Sin API key'));
    });

  openai
    .command('delete')
    .description('elimina la API key guardada')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const result = await (await ctx.authenticated()).delete<{ success: true }>(KEY_PATH);
      ctx.out.result(result, () => 'API key eliminada');
    });
}

/** Piped stdin is read whole; on a terminal the key is asked without echo. */
async function keyFromStdin(): Promise<string> {
  if (!process.stdin.isTTY) return readStdin();
  if (!isInteractive()) throw usageError('Ingresa tu API key');
  return askHidden('API key de OpenAI: ');
}
