import { SERVICE_NAMES, SERVICE_PORTS } from '@asistente/contracts';
import { runService, serviceUrls } from '@asistente/kit';
import emailService from './app.js';
import { settings } from './settings.js';

await runService('email', emailService, SERVICE_PORTS.email, [settings, serviceUrls(SERVICE_NAMES)]);
