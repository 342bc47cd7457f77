import type { SwaggerOptions } from '@fastify/swagger';
import { personalTokenRoles } from '@asistente/contracts';
import { API_PREFIX, isPublic, routeFor } from '../routing-table.js';

/** The reference's section of each service of the routing table, by its name there. */
export const SERVICE_TAGS: Readonly<Record<string, string>> = {
  auth: 'Cuenta',
  contacts: 'Contactos',
  calendar: 'Calendario',
  whatsapp: 'WhatsApp',
  email: 'Correo',
  teams: 'Teams',
  ai: 'Asistente IA',
  analytics: 'Analítica',
  webhooks: 'Webhooks',
  inbox: 'Conversaciones',
};

/** The gateway's own probes, documented beside the API: both topologies answer them. */
export const HEALTH_TAG = 'Estado';
const HEALTH_PATHS = new Set(['/health', '/ready']);

const SESSION = { bearerAuth: [] };
const PERSONAL_TOKEN = { personalToken: [] };

/** What a status means here, in the reference's words (every error body is `ErrorResponse`). */
const STATUS_MEANINGS: Readonly<Record<string, string>> = {
  '200': 'Correcto',
  '201': 'Creado',
  '202': 'Aceptado',
  '204': 'Hecho; sin contenido',
  '400': 'Datos no válidos: el mensaje dice cuál',
  '401': 'Sesión inválida o expirada',
  '403': 'Sin permiso para esta acción',
  '404': 'No existe (o es de otro usuario)',
  '405': 'Método no admitido en esta ruta',
  '409': 'En conflicto con el estado actual',
  '413': 'El archivo es demasiado grande',
  '422': 'La clave de idempotencia ya se usó con otra petición',
  '429': 'Demasiadas peticiones: vuelve a intentarlo más tarde',
  '502': 'El proveedor externo falló',
  '503': 'No configurado o no disponible ahora',
  '504': 'El proveedor externo no respondió a tiempo',
};
const DEFAULT_DESCRIPTION = 'Default Response';

type Operation = { responses?: Record<string, { description?: string }> };

/** @fastify/swagger describes an undescribed answer as "Default Response": say what the status means instead. */
function describeResponses(paths: Record<string, Record<string, Operation>>): void {
  for (const operation of Object.values(paths).flatMap((methods) => Object.values(methods))) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (response.description !== DEFAULT_DESCRIPTION) continue;
      response.description = STATUS_MEANINGS[status] ?? 'Error';
    }
  }
}

type RouteSchema = Record<string, unknown> & { hide?: boolean; tags?: string[]; security?: Record<string, string[]>[] };

/**
 * Where a route sits in the reference: the API's routes under their service's tag, with the security
 * the edge applies (none on public routes, the session only on account routes, which personal tokens
 * never reach), the health probes as public; everything else the gateway serves (the SPA, the
 * reference itself) is hidden.
 */
export function documentedRoute(url: string, method: string, schema: RouteSchema | undefined): RouteSchema {
  const given = schema ?? {};
  if (HEALTH_PATHS.has(url)) return { ...given, tags: [HEALTH_TAG], security: [] };
  if (!url.startsWith(`${API_PREFIX}/`)) return { ...given, hide: true };
  const servicePath = url.slice(API_PREFIX.length);
  const route = routeFor(servicePath);
  if (!route) return { ...given, hide: true };
  // A path parameter (`:id`) matches the routing table's `*` segments as any other non-empty segment does.
  const roles = personalTokenRoles(method, servicePath);
  // A personal token is listed with the scope it needs (OpenAPI 3.1 roles) where the edge lets it through.
  const security = isPublic(route, method, servicePath) ? [] : roles ? [SESSION, { personalToken: roles }] : [SESSION];
  return { ...given, tags: [SERVICE_TAGS[route.name] ?? route.name], security };
}

/** @fastify/swagger's options: OpenAPI 3.1, the two bearer schemes, a tag per service. */
export function openApiOptions(version: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Mi Asistente.IA',
        version,
        description:
          'La API de Mi Asistente.IA: contactos, calendario, WhatsApp, correo, Teams, el asistente y la analítica de un negocio. ' +
          'Cada ruta acepta `Authorization: Bearer <token>` con el token de sesión que devuelven el inicio de sesión y el registro; ' +
          'las rutas públicas (inicio de sesión, registro, recuperación de contraseña, estado) no lo piden. ' +
          'Los errores siguen siempre la forma `{ statusCode, code, error, message }`, con el mensaje en español.',
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Token de sesión (JWT) que devuelven POST /api/auth/login y POST /api/auth/register.',
          },
          personalToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'Token de acceso personal (`asis_pat_…`), creado en Configuración → Tokens de acceso o con POST /api/auth/tokens, ' +
              'limitado a los permisos con que se creó (cada operación dice cuál necesita); nunca en las rutas de la cuenta. ' +
              'Fuera de sus permisos responde 403; revocado o caducado, 401; limitado por minuto y token (429).',
          },
        },
      },
      security: [SESSION, PERSONAL_TOKEN],
      tags: [
        ...Object.values(SERVICE_TAGS).map((name) => ({ name })),
        { name: HEALTH_TAG, description: 'Si el proceso vive y puede atender.' },
      ],
    },
    transformObject: (document) => {
      const openapi = 'openapiObject' in document ? document.openapiObject : document.swaggerObject;
      describeResponses(openapi.paths as Record<string, Record<string, Operation>>);
      return openapi;
    },
    transform: ({ schema, url, route }) => {
      const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
      return { schema: documentedRoute(url, method, schema as RouteSchema | undefined), url };
    },
  };
}
