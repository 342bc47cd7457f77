import { SERVICE_NAMES, SERVICE_PORTS } from '@asistente/contracts';
import { runService, serviceUrls } from '@asistente/kit';
import inboxService from './app.js';

await runService('inbox', inboxService, SERVICE_PORTS.inbox, [serviceUrls(SERVICE_NAMES)]);
