import { integer, listOf, saysConnected, text, type ToolSource } from './tool.js';

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
      description: 'Busca correos del negocio por texto (remitente, asunto o contenido). Solo lectura.',
      parameters: {
        type: 'object',
        properties: { texto: { type: 'string' }, limite: { type: 'integer', minimum: 1, maximum: 20 } },
        required: ['texto'],
        additionalProperties: false,
      },
      run: async ({ services, userId }, args) => {
        const search = text(args, 'texto', 100) ?? '';
        const limit = integer(args, 'limite', 1, 20, 10);
        const emails = listOf(await services.request('email', userId, '/emails', { query: { search, limit } }), 'emails').map(compactEmail);
        return { result: { correos: emails }, summary: `Buscó correos «${search}»: ${emails.length} encontrado${emails.length === 1 ? '' : 's'}` };
      },
    },
  ],
};
