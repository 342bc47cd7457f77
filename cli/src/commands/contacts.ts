import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline as pipe, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CSV_COLUMNS, type ContactList, type ImportReport } from '@asistente/contracts';
import type { Command } from 'commander';
import { positiveInteger } from '../lib/arguments.js';
import { contextOf } from '../lib/context.js';
import { CliError } from '../lib/errors.js';
import { ProgressBar } from '../lib/progress.js';

interface ListOptions {
  page?: number;
  limit?: number;
  search?: string;
  tag?: string;
}

interface ExportOptions {
  search?: string;
  tag?: string;
}

const count = new Intl.NumberFormat('es-ES');

export function registerContactsCommands(program: Command): void {
  const contacts = program.command('contacts').description('contactos: listar, importar y exportar CSV');

  contacts
    .command('list')
    .description('lista tus contactos, 10 por página')
    .option('--page <n>', 'página', positiveInteger)
    .option('--limit <n>', 'contactos por página (máximo 100)', positiveInteger)
    .option('--search <texto>', 'busca en nombre, correo, teléfono y empresa')
    .option('--tag <etiqueta>', 'solo los que llevan esta etiqueta')
    .action(async (options: ListOptions, command: Command) => {
      const ctx = contextOf(command);
      const query = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
      const list = await (await ctx.authenticated()).get<ContactList>('contacts', query);
      ctx.out.result(list, () => formatList(list));
    });

  contacts
    .command('import')
    .description('importa un CSV (nombre, apellido, correo, teléfono, empresa, etiquetas); upsert por correo')
    .argument('<archivo>', 'archivo CSV (Google, Outlook, en español…) o vCard (.vcf)')
    .option('--dry-run', 'valida y cuenta sin guardar nada')
    .option('--map <cabecera=campo>', `asigna una columna a un campo (${CSV_COLUMNS.join(', ')}), o "cabecera=" para ignorarla; repetible`, collectMapping, {})
    .action(async (file: string, options: { dryRun?: boolean; map: Record<string, string> }, command: Command) => {
      const ctx = contextOf(command);
      const api = await ctx.authenticated();
      const size = await fileSize(file);
      const bar = new ProgressBar(size, options.dryRun ? 'Validando' : 'Subiendo');
      let sent = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sent += chunk.length;
          bar.update(sent);
          done(null, chunk);
        },
        flush(done) {
          bar.finish('Procesando en el servidor…');
          done();
        },
      });
      let report: ImportReport;
      try {
        // A read error destroys `counter`, which fails the upload: no separate handler needed.
        const body = pipe(createReadStream(file), counter, () => {});
        const searchParams: Record<string, string> = {};
        if (options.dryRun) searchParams.dryRun = 'true';
        if (Object.keys(options.map).length > 0) searchParams.map = JSON.stringify(options.map);
        report = await api.upload<ImportReport>('contacts/import', body, {
          contentType: /\.vcf$/i.test(file) ? 'text/vcard' : 'text/csv',
          searchParams,
        });
      } catch (error) {
        bar.abort();
        throw error;
      }
      ctx.out.result(report, () => formatReport(report, options.dryRun === true));
    });

  contacts
    .command('export')
    .description('exporta tus contactos a CSV (al archivo o a la salida estándar)')
    .argument('[archivo]', 'archivo de destino; sin él, el CSV sale por stdout')
    .option('--search <texto>', 'solo los que coinciden con la búsqueda')
    .option('--tag <etiqueta>', 'solo los que llevan esta etiqueta')
    .action(async (file: string | undefined, options: ExportOptions, command: Command) => {
      const ctx = contextOf(command);
      const query = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
      const body = Readable.fromWeb(await (await ctx.authenticated()).download('contacts/export', query));
      if (file === undefined) {
        await pipeline(body, process.stdout, { end: false });
        return;
      }
      await pipeline(body, createWriteStream(file));
      const { size } = await stat(file);
      ctx.out.result({ file, bytes: size }, () => `Contactos exportados a ${file}`);
    });
}

/** `--map "Given Name=firstName"`, repeated: header -> field ('' ignores the column), checked before uploading. */
export function collectMapping(value: string, mapping: Record<string, string>): Record<string, string> {
  const at = value.lastIndexOf('=');
  const header = value.slice(0, at).trim();
  const field = value.slice(at + 1).trim();
  const fields: readonly string[] = CSV_COLUMNS;
  if (at <= 0 || !header || (field !== '' && !fields.includes(field))) {
    throw new CliError(`--map espera "cabecera=campo" con un campo de: ${CSV_COLUMNS.join(', ')} (o vacío para ignorar la columna); recibido "${value}"`);
  }
  return { ...mapping, [header]: field };
}

async function fileSize(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CliError(`${file} no es un archivo`);
    return info.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`No existe el archivo ${file}`);
    throw error;
  }
}

function formatList(list: ContactList): string {
  if (list.contacts.length === 0) return list.total === 0 ? 'No tienes contactos' : 'No hay contactos en esta página';
  const rows = list.contacts.map((c) =>
    [`${c.firstName} ${c.lastName}`, c.email ?? '', c.phone ?? '', c.company ?? '', c.tags.join(', ')].join('\t'),
  );
  const pages = Math.max(1, Math.ceil(list.total / list.limit));
  return [...rows, `Página ${list.page} de ${count.format(pages)} · ${count.format(list.total)} contactos`].join('\n');
}

function formatReport(report: ImportReport, dryRun: boolean): string {
  const lines = [
    dryRun ? 'Validación terminada (no se guardó nada):' : 'Importación terminada:',
    `  Creados: ${count.format(report.created)}`,
    `  Actualizados: ${count.format(report.updated)}`,
    `  Sin cambios: ${count.format(report.skipped)}`,
    `  Con errores: ${count.format(report.errors.length)}`,
    ...report.errors.map((e) => `    Línea ${e.line}: ${e.message}`),
    ...(report.unmappedColumns?.length ? [`  Columnas sin usar: ${report.unmappedColumns.join(', ')} (asígnalas con --map "cabecera=campo")`] : []),
  ];
  return lines.join('\n');
}
