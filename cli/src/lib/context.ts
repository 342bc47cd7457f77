import type { Command } from 'commander';
import { ApiClient } from './api.js';
import { CliError } from './errors.js';
import { Output } from './output.js';
import { readSession } from './session-store.js';

/** The program's own options, readable from every subcommand. */
export interface GlobalOptions {
  apiUrl: string;
  token?: string;
  json?: boolean;
}

export interface CliContext {
  apiUrl: string;
  /** --token / ASISTENTE_TOKEN, which wins over the stored session. */
  explicitToken: string | undefined;
  out: Output;
  /** A client without a token (login). */
  anonymous(): ApiClient;
  /** A client with the session's token; fails with a hint when there is none. */
  authenticated(): Promise<ApiClient>;
}

export function contextOf(command: Command): CliContext {
  const options = command.optsWithGlobals<GlobalOptions>();
  const apiUrl = options.apiUrl;
  return {
    apiUrl,
    explicitToken: options.token,
    out: new Output(options.json === true),
    anonymous: () => new ApiClient(apiUrl),
    async authenticated() {
      const token = options.token ?? (await readSession(apiUrl))?.token;
      if (!token) throw new CliError(`No has iniciado sesión en ${apiUrl}: ejecuta "asistente login"`);
      return new ApiClient(apiUrl, token);
    },
  };
}
