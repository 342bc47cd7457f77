import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { registerAccountCommands } from './commands/account.js';
import { registerAdminCommands } from './commands/admin.js';
import { registerAuthCommands } from './commands/auth.js';
import { registerContactsCommands } from './commands/contacts.js';
import { registerExportCommand } from './commands/export.js';
import { registerOpenAiCommands } from './commands/openai.js';
import { registerTokensCommands } from './commands/tokens.js';
import { httpUrl } from './lib/arguments.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE, readableError } from './lib/errors.js';
import { Output } from './lib/output.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * `asistente`: the product from a terminal. Options that describe the environment (where the API is, who you
 * are, how to print) also read a variable, shown in --help; exit codes 0 ok, 1 failure, 2 usage.
 */
const program = new Command('asistente')
  .description('Mi Asistente.IA desde la terminal')
  .version(version, '-V, --version', 'muestra la versión')
  .helpOption('-h, --help', 'muestra la ayuda')
  .helpCommand('help [comando]', 'muestra la ayuda de un comando')
  .addOption(new Option('--api-url <url>', 'URL del servidor').env('ASISTENTE_API_URL').default('http://localhost:3000').argParser(httpUrl))
  .addOption(new Option('--token <token>', 'token de sesión o de acceso personal (asis_pat_…), en lugar del guardado por login').env('ASISTENTE_TOKEN'))
  .addOption(new Option('--json', 'salida JSON para scripts').env('ASISTENTE_JSON'))
  .showHelpAfterError('(usa --help para ver las opciones)')
  // Subcommands inherit this: commander throws instead of exiting, and the catch below picks the code.
  .exitOverride();

registerAuthCommands(program);
registerContactsCommands(program);
registerExportCommand(program);
registerOpenAiCommands(program);
registerTokensCommands(program);
registerAccountCommands(program);
registerAdminCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeOf(error);
}

function exitCodeOf(thrown: unknown): number {
  // Commander has already printed its message (or the help/version it was asked for).
  if (thrown instanceof CommanderError) return thrown.exitCode === 0 ? 0 : EXIT_USAGE;
  const error = readableError(thrown);
  new Output(program.opts<{ json?: boolean }>().json === true).error(error);
  return error instanceof CliError ? error.exitCode : EXIT_FAILURE;
}
