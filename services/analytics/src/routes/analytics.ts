import {
  ActivityPoint,
  analyticsQuery,
  analyticsRoutes as calledAnalyticsRoutes,
  ContactsGrowthPoint,
  ErrorResponse,
  ProductivityPoint,
  RecentActivity,
  RecentQuery,
  TeamFigures,
  TeamsStats,
  type AnalyticsPeriod,
} from '@asistente/contracts';
import { badRequest, describedRoute, type App } from '@asistente/kit';
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
  const figure = <T extends TSchema>(path: string, summary: string, defaultPeriod: AnalyticsPeriod, response: T, read: (s: Scope) => Promise<Static<T>>) =>
    app.get(path, {
      schema: { summary, querystring: analyticsQuery(defaultPeriod), response: { 200: response, ...errors } },
      // TypeScript cannot tie a generic schema to Fastify's inferred reply type; `read` is typed by it instead.
      handler: (request) => read(scope(request)) as never,
    });

  // The figures other services call are registered from their descriptors (the same query and answer schemas).
  describedRoute(app, calledAnalyticsRoutes.dashboard, { summary: 'Cifras del panel de inicio', errors, handler: (request) => analytics.dashboard(scope(request)) });
  figure('/analytics/activity', 'Actividad por día y canal', '7d', Type.Array(ActivityPoint), (s) => analytics.activity(s));
  figure('/analytics/contacts-growth', 'Crecimiento de los contactos', '30d', Type.Array(ContactsGrowthPoint), (s) => analytics.contactsGrowth(s));
  describedRoute(app, calledAnalyticsRoutes.emails, { summary: 'Cifras del correo', errors, handler: (request) => analytics.emails(scope(request)) });
  describedRoute(app, calledAnalyticsRoutes.whatsapp, { summary: 'Cifras de WhatsApp', errors, handler: (request) => analytics.whatsapp(scope(request)) });
  figure('/analytics/teams', 'Cifras de Teams', '30d', TeamsStats, (s) => analytics.teams(s));
  figure('/analytics/productivity', 'Productividad por día', '30d', Type.Array(ProductivityPoint), (s) => analytics.productivity(s));
  figure('/analytics/team', 'Primera respuesta, resolución y conversaciones atendidas por miembro', '30d', TeamFigures, (s) => team.figures(s));

  app.get('/analytics/recent', {
    schema: { summary: 'Actividad reciente', querystring: RecentQuery, response: { 200: RecentActivity, ...errors } },
    handler: (request) => analytics.recent(request.user.workspaceId, request.query.limit),
  });
}
