import { runService, SERVICE_PORTS } from '@asistente/kit';
import webhooksService from './app.js';

await runService('webhooks', webhooksService, SERVICE_PORTS.webhooks);
