import { runService } from '@asistente/kit';
import authService from './app.js';

await runService('auth', authService, 3001);
