import { emailRoutes, type EmailSummary } from '@asistente/contracts';
import { moreHint, nextPage, page, pageProperties, text, type ToolSource } from './tool.js';

function compactEmail(m: EmailSummary): Record<string, unknown> {
  return { de: m.from, para: m.to, asunto: m.subject, fecha: m.createdAt, extracto: m.preview.slice(0, 300) };
}

export const emailsSource: ToolSource = {
  name: 'emails',
  isAvailable: async ({ services, caller }) => (await services.call(emailRoutes.integrations, caller)).some((account) => account.connected),
  tools: [
    {
      name: 'buscar_correos',
      description: 'Busca correos del negocio por texto (remitente, asunto o contenido), por páginas. Solo lectura.',
      parameters: {
        type: 'object',
        properties: { texto: { type: 'string' }, ...pageProperties(20) },
        required: ['texto'],
        additionalProperties: false,
      },
      run: async ({ services, caller }, args) => {
        const search = text(args, 'texto', 100) ?? '';
        const paging = page(args, 20, 10);
        const answer = await services.call(emailRoutes.list, caller, { query: { search, ...paging } });
        const emails = answer.data.map(compactEmail);
        const next = nextPage(answer.pagination.total, paging);
        return {
          result: { correos: emails, pagina: paging.page, hayMas: next !== undefined, ...(next ? { siguientePagina: next } : {}) },
          summary: `Buscó correos «${search}»: ${emails.length} encontrado${emails.length === 1 ? '' : 's'}${moreHint(next)}`,
        };
      },
    },
  ],
};
