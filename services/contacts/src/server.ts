import { runService, SERVICE_PORTS } from '@asistente/kit';
import contactsService from './app.js';

await runService('contacts', contactsService, SERVICE_PORTS.contacts);
