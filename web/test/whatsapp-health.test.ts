import t from 'tap';
import type { WhatsAppHealth } from '@asistente/contracts';
import { healthLines } from '../src/features/whatsapp/health.js';

const health: WhatsAppHealth = {
  state: 'connected',
  since: new Date(0).toISOString(),
  lastEventAgeSeconds: 5,
  reconnectsLastHour: 0,
  decryptFailures: 0,
  pendingMessages: 0,
  owner: 'réplica 3f9a2c',
  error: null,
};
const serverLine = (h: WhatsAppHealth) => healthLines(h).find((line) => line.label === 'Servidor que mantiene la conexión')?.value;

t.test('the panel names the replica holding the socket by the label the server gives, or says none does', async (t) => {
  t.equal(serverLine(health), 'réplica 3f9a2c');
  t.equal(serverLine({ ...health, owner: null }), 'Ninguno ahora mismo');
});
