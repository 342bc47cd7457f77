import { runService, SERVICE_PORTS } from '@asistente/kit';
import inboxService from './app.js';

await runService('inbox', inboxService, SERVICE_PORTS.inbox);
