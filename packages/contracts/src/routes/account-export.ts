import { AccountExportPage, AccountExportPageQuery } from '../account-export.js';
import { route, type RouteDescriptor } from './route.js';

const exportRoute = <const Service extends string, const Prefix extends string>(service: Service, prefix: Prefix) =>
  route({ service, method: 'GET', path: `${prefix}/account-export`, query: AccountExportPageQuery, response: AccountExportPage });

/** Each service's part of "Descargar mis datos", as auth asks for it and the kit's route serves it. */
export const accountExportRoutes = {
  contacts: exportRoute('contacts', '/contacts'),
  whatsapp: exportRoute('whatsapp', '/whatsapp'),
  email: exportRoute('email', '/emails'),
  calendar: exportRoute('calendar', '/events'),
  ai: exportRoute('ai', '/ai'),
  inbox: exportRoute('inbox', '/conversations'),
  analytics: exportRoute('analytics', '/analytics'),
} satisfies Record<string, RouteDescriptor>;

export type AccountExportRoute = (typeof accountExportRoutes)[keyof typeof accountExportRoutes];
