import { EmailIntegrationList, EmailList, EmailListQuery } from '../email.js';
import { route } from './route.js';

/** The email service's routes other services call. */
export const emailRoutes = {
  list: route({ service: 'email', method: 'GET', path: '/emails', query: EmailListQuery, response: EmailList }),
  integrations: route({ service: 'email', method: 'GET', path: '/emails/integrations', response: EmailIntegrationList }),
};
