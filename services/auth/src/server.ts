import { SERVICE_NAMES, SERVICE_PORTS } from '@asistente/contracts';
import { runService, serviceUrls } from '@asistente/kit';
import authService from './app.js';
import { settings } from './settings.js';

await runService('auth', authService, SERVICE_PORTS.auth, [settings, serviceUrls(SERVICE_NAMES)]);
