import { SERVICE_NAMES, SERVICE_PORTS } from '@asistente/contracts';
import { runService, serviceUrls } from '@asistente/kit';
import webhooksService from './app.js';

await runService('webhooks', webhooksService, SERVICE_PORTS.webhooks, [serviceUrls(SERVICE_NAMES)]);
