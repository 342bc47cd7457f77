import { Contact, ContactBody, ContactTimeline, ContactHandleQuery, ContactList, ContactListQuery, ContactMatches } from '../contacts.js';
import { IdParams } from '../common.js';
import { route } from './route.js';

/** The contacts service's routes other services call. */
export const contactsRoutes = {
  list: route({ service: 'contacts', method: 'GET', path: '/contacts', query: ContactListQuery, response: ContactList }),
  byHandle: route({ service: 'contacts', method: 'GET', path: '/contacts/by-handle', query: ContactHandleQuery, response: ContactMatches }),
  get: route({ service: 'contacts', method: 'GET', path: '/contacts/:id', params: IdParams, response: Contact }),
  timeline: route({ service: 'contacts', method: 'GET', path: '/contacts/:id/timeline', params: IdParams, response: ContactTimeline }),
  create: route({ service: 'contacts', method: 'POST', path: '/contacts', body: ContactBody, response: Contact }),
  update: route({ service: 'contacts', method: 'PUT', path: '/contacts/:id', params: IdParams, body: ContactBody, response: Contact }),
};
