import { SERVICE_NAMES, SERVICE_PORTS } from '@asistente/contracts';
import { runService, serviceUrls } from '@asistente/kit';
import teamsService from './app.js';
import { settings } from './settings.js';

await runService('teams', teamsService, SERVICE_PORTS.teams, [settings, serviceUrls(SERVICE_NAMES)]);
