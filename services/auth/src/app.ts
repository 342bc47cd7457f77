import rateLimit from '@fastify/rate-limit';
import { authPlugin, requireAuth, type App, type ServicePlugin } from '@asistente/kit';
import { HashingGate } from './domain/hashing-gate.js';
import { PasswordHasher } from './domain/passwords.js';
import { UsersRepository } from './domain/users.repository.js';
import { UsersService } from './domain/users.service.js';
import { authRoutes } from './routes/auth.js';

/** The auth service as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
const authService: ServicePlugin = async (fastify, { platform }) => {
  const app = fastify as unknown as App;
  const { config, db, revocations } = platform;
  await app.register(authPlugin, { tokens: platform.tokens, revocations });
  await app.register(rateLimit, { global: false });
  requireAuth(app);
  const users = new UsersService({
    sql: db.sql,
    users: new UsersRepository(db.sql),
    hasher: new PasswordHasher(config.SCRYPT_COST, new HashingGate(config.HASH_CONCURRENCY, config.HASH_QUEUE_MAX)),
    outbox: platform.outbox('auth'),
  });
  await authRoutes(app, {
    users,
    revocations,
    loginLimit: { max: config.RATE_LIMIT_LOGIN_MAX, timeWindow: config.RATE_LIMIT_WINDOW_MS },
  });
};

export default authService;
