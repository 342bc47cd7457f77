import { listOf, moreHint, nextPage, page, pageProperties, saysConnected, text, type ToolSource } from './tool.js';

/** The whole list's count of a sibling's page (`pagination.total`), or undefined when it does not say. */
function totalOf(answer: unknown): number | undefined {
  const total = (answer as { pagination?: { total?: unknown } } | undefined)?.pagination?.total;
  return typeof total === 'number' ? total : undefined;
}

function compactEmail(raw: unknown): Record<string, unknown> {
  const m = (raw ?? {}) as Record<string, unknown>;
  return {
    de: m.from ?? null,
    para: m.to ?? null,
    asunto: m.subject ?? null,
    fecha: m.createdAt ?? m.date ?? null,
    extracto: String(m.preview ?? m.snippet ?? m.text ?? '').slice(0, 300),
  };
}

export const emailsSource: ToolSource = {
  name: 'emails',
  isAvailable: async ({ services, userId }) => saysConnected(await services.request('email', userId, '/emails/integrations')),
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
      run: async ({ services, userId }, args) => {
        const search = text(args, 'texto', 100) ?? '';
        const paging = page(args, 20, 10);
        const answer = await services.request('email', userId, '/emails', { query: { search, ...paging } });
        const emails = listOf(answer, 'emails').map(compactEmail);
        const total = totalOf(answer);
        const next = total === undefined ? undefined : nextPage(total, paging);
        return {
          result: { correos: emails, pagina: paging.page, hayMas: next !== undefined, ...(next ? { siguientePagina: next } : {}) },
          summary: `Buscó correos «${search}»: ${emails.length} encontrado${emails.length === 1 ? '' : 's'}${moreHint(next)}`,
        };
      },
    },
  ],
};
