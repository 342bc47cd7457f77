import {
  ActivityPoint,
  AnalyticsDashboard,
  analyticsQuery,
  analyticsRoutes as calledAnalyticsRoutes,
  ContactsGrowthPoint,
  EmailStats,
  ErrorResponse,
  ProductivityPoint,
  RecentActivity,
  RecentQuery,
  TeamFigures,
  TeamsStats,
  WhatsappStats,
  type AnalyticsPeriod,
} from '@asistente/contracts';
import { badRequest, type App } from '@asistente/kit';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AnalyticsService, Scope } from '../domain/analytics.service.js';
import { isTimeZone } from '../domain/period.js';
import type { TeamFiguresService } from '../domain/team-figures.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse };

function scope(request: FastifyRequest): Scope {
  const { period, tz } = request.query as { period: AnalyticsPeriod; tz: string };
  if (!isTimeZone(tz)) throw badRequest(`Zona horaria desconocida: "${tz}"`, 'VALIDATION_ERROR');
  return { userId: request.user.workspaceId, period, tz };
}

export async function analyticsRoutes(app: App, { analytics, team }: { analytics: AnalyticsService; team: TeamFiguresService }): Promise<void> {
  // A route other services call registers its descriptor's own query schema (one object, so the two cannot drift).
  const called: ReadonlyMap<string, TSchema | undefined> = new Map(Object.values(calledAnalyticsRoutes).map((route) => [route.path, route.query]));
  const figure = <T extends TSchema>(path: string, summary: string, defaultPeriod: AnalyticsPeriod, response: T, read: (s: Scope) => Promise<Static<T>>) =>
    app.get(path, {
      schema: { summary, querystring: called.get(path) ?? analyticsQuery(defaultPeriod), response: { 200: response, ...errors } },
      // TypeScript cannot tie a generic schema to Fastify's inferred reply type; `read` is typed by it instead.
      handler: (request) => read(scope(request)) as never,
    });

  figure('/analytics/dashboard', 'Cifras del panel de inicio', '30d', AnalyticsDashboard, (s) => analytics.dashboard(s));
  figure('/analytics/activity', 'Actividad por día y canal', '7d', Type.Array(ActivityPoint), (s) => analytics.activity(s));
  figure('/analytics/contacts-growth', 'Crecimiento de los contactos', '30d', Type.Array(ContactsGrowthPoint), (s) => analytics.contactsGrowth(s));
  figure('/analytics/emails', 'Cifras del correo', '30d', EmailStats, (s) => analytics.emails(s));
  figure('/analytics/whatsapp', 'Cifras de WhatsApp', '30d', WhatsappStats, (s) => analytics.whatsapp(s));
  figure('/analytics/teams', 'Cifras de Teams', '30d', TeamsStats, (s) => analytics.teams(s));
  figure('/analytics/productivity', 'Productividad por día', '30d', Type.Array(ProductivityPoint), (s) => analytics.productivity(s));
  figure('/analytics/team', 'Primera respuesta, resolución y conversaciones atendidas por miembro', '30d', TeamFigures, (s) => team.figures(s));

  app.get('/analytics/recent', {
    schema: { summary: 'Actividad reciente', querystring: RecentQuery, response: { 200: RecentActivity, ...errors } },
    handler: (request) => analytics.recent(request.user.workspaceId, request.query.limit),
  });
}
