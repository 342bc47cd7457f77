import { runService, SERVICE_PORTS } from '@asistente/kit';
import emailService from './app.js';

await runService('email', emailService, SERVICE_PORTS.email);
