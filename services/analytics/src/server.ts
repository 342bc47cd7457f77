import { runService, SERVICE_PORTS } from '@asistente/kit';
import analyticsService from './app.js';

await runService('analytics', analyticsService, SERVICE_PORTS.analytics);
