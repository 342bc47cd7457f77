import { runService } from '@asistente/kit';
import contactsService from './app.js';

await runService('contacts', contactsService, 3002);
