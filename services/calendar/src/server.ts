import { runService, SERVICE_PORTS } from '@asistente/kit';
import calendarService from './app.js';

await runService('calendar', calendarService, SERVICE_PORTS.calendar);
