import { runService, SERVICE_PORTS } from '@asistente/kit';
import authService from './app.js';

await runService('auth', authService, SERVICE_PORTS.auth);
