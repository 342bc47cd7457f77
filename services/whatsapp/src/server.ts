import { runService, SERVICE_PORTS } from '@asistente/kit';
import whatsappService from './app.js';

await runService('whatsapp', whatsappService, SERVICE_PORTS.whatsapp);
