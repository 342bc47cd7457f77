import { SERVICE_NAMES, SERVICE_PORTS } from '@asistente/contracts';
import { runService, serviceUrls } from '@asistente/kit';
import calendarService from './app.js';
import { settings } from './settings.js';

await runService('calendar', calendarService, SERVICE_PORTS.calendar, [settings, serviceUrls(SERVICE_NAMES)]);
