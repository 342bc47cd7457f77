import { SERVICE_NAMES, SERVICE_PORTS } from '@asistente/contracts';
import { runService, serviceUrls } from '@asistente/kit';
import whatsappService from './app.js';
import { settings } from './settings.js';

await runService('whatsapp', whatsappService, SERVICE_PORTS.whatsapp, [settings, serviceUrls(SERVICE_NAMES)]);
