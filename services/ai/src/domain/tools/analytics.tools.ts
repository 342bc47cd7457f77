import { analyticsRoutes } from '@asistente/contracts';
import type { AssistantTool } from './tool.js';

const PERIODS = ['7d', '30d', '90d', '1y'] as const;
const PERIOD_NAMES: Record<(typeof PERIODS)[number], string> = { '7d': '7 días', '30d': '30 días', '90d': '90 días', '1y': '1 año' };

/** The analytics service's figures of one period in one small answer: the dashboard, mail and WhatsApp. */
export const analyticsSummaryTool: AssistantTool = {
  name: 'resumen_analitica',
  description: 'Resume las cifras del negocio en un periodo: contactos, eventos, correos y mensajes de WhatsApp. Solo lectura.',
  parameters: {
    type: 'object',
    properties: {
      periodo: { type: 'string', enum: [...PERIODS], description: 'Periodo: 7d, 30d, 90d o 1y (30d si no se indica)' },
      zonaHoraria: { type: 'string', maxLength: 64, description: 'Zona horaria IANA (Europe/Madrid si no se indica)' },
    },
    additionalProperties: false,
  },
  run: async ({ services, caller }, args) => {
    const period = PERIODS.find((p) => p === args.periodo) ?? '30d';
    const tz = typeof args.zonaHoraria === 'string' && args.zonaHoraria.trim() ? args.zonaHoraria.trim().slice(0, 64) : 'Europe/Madrid';
    const query = { period, tz };
    const [dashboard, emails, whatsapp] = await Promise.all([
      services.call(analyticsRoutes.dashboard, caller, { query }),
      services.call(analyticsRoutes.emails, caller, { query }),
      services.call(analyticsRoutes.whatsapp, caller, { query }),
    ]);
    return {
      result: {
        periodo: PERIOD_NAMES[period],
        contactos: dashboard.totalContacts,
        eventos: dashboard.totalEvents,
        correos: { total: dashboard.totalEmails, enviados: emails.sent, recibidos: emails.received, abiertos: emails.opened, clics: emails.clicked },
        whatsapp: { total: dashboard.totalMessages, enviados: whatsapp.sent, recibidos: whatsapp.received, contactos: whatsapp.contacts, respuestasAutomaticas: whatsapp.autoReplies },
      },
      summary: `Leyó el resumen de analítica de ${PERIOD_NAMES[period]}`,
    };
  },
};
