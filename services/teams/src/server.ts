import { runService, SERVICE_PORTS } from '@asistente/kit';
import teamsService from './app.js';

await runService('teams', teamsService, SERVICE_PORTS.teams);
