import { runService, SERVICE_PORTS } from '@asistente/kit';
import aiService from './app.js';

await runService('ai', aiService, SERVICE_PORTS.ai);
