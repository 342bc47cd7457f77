import { SERVICE_NAMES, SERVICE_PORTS } from '@asistente/contracts';
import { runService, serviceUrls } from '@asistente/kit';
import analyticsService from './app.js';

await runService('analytics', analyticsService, SERVICE_PORTS.analytics, [serviceUrls(SERVICE_NAMES)]);
