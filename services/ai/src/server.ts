import { SERVICE_NAMES, SERVICE_PORTS } from '@asistente/contracts';
import { runService, serviceUrls } from '@asistente/kit';
import aiService from './app.js';
import { settings } from './settings.js';

await runService('ai', aiService, SERVICE_PORTS.ai, [settings, serviceUrls(SERVICE_NAMES)]);
