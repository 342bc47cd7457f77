import { emailRoutes } from '@asistente/contracts';
import { emailsSource } from '../emails.tools.js';
import { customerOf, integer, type ToolContext, type ToolSource } from '../tool.js';

/** The bare, lowercase addresses of a header (`Ana <ana@x.es>, b@y.es`). */
function addressesOf(header: string): string[] {
  return header.split(',').map((entry) => (/<([^>]*)>/.exec(entry)?.[1] ?? entry).trim().toLowerCase());
}

/**
 * The mail between the business and the customer: received from one of their addresses, or sent to one. The
 * mail service filters by address; the check is repeated here on the parsed headers, and the other people a
 * message went to are never shown (only who wrote: the customer or the business).
 */
async function mailOf(context: ToolContext, addresses: string[], limit: number) {
  const reads = addresses.flatMap((address) =>
    (['inbox', 'sent'] as const).map(async (folder) => {
      const answer = await context.services.call(emailRoutes.list, context.caller, { query: { folder, address, limit } });
      return answer.data
        .filter((m) => addressesOf(folder === 'inbox' ? m.from : m.to).includes(address))
        .map((m) => ({ de: folder === 'inbox' ? 'cliente' : 'negocio', asunto: m.subject, fecha: m.createdAt, extracto: m.preview.slice(0, 300) }));
    }),
  );
  return (await Promise.all(reads))
    .flat()
    .sort((a, b) => b.fecha.localeCompare(a.fecha))
    .slice(0, limit);
}

export const customerMailSource: ToolSource = {
  name: emailsSource.name,
  isAvailable: emailsSource.isAvailable,
  tools: [
    {
      name: 'leer_correos_del_cliente',
      description: 'Lee los correos recientes entre el negocio y el cliente de este chat (a su dirección o desde ella). Solo lectura.',
      parameters: { type: 'object', properties: { limite: { type: 'integer', minimum: 1, maximum: 20 } }, additionalProperties: false },
      run: async (context, args) => {
        const { addresses } = customerOf(context);
        if (addresses.length === 0) return { result: { correos: [], nota: 'No hay un correo conocido de este cliente' }, summary: 'Sin correo conocido del cliente' };
        const mail = await mailOf(context, addresses, integer(args, 'limite', 1, 20, 10));
        return { result: { correos: mail }, summary: `Leyó los correos del cliente: ${mail.length} encontrado${mail.length === 1 ? '' : 's'}` };
      },
    },
  ],
};
