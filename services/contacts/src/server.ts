import { SERVICE_NAMES, SERVICE_PORTS } from '@asistente/contracts';
import { runService, serviceUrls } from '@asistente/kit';
import contactsService from './app.js';
import { settings } from './settings.js';

await runService('contacts', contactsService, SERVICE_PORTS.contacts, [settings, serviceUrls(SERVICE_NAMES)]);
