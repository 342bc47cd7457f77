import { authPlugin, requireAuth, type App, type ServicePlugin } from '@asistente/kit';

/** The email service as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
const emailService: ServicePlugin = async (fastify, { platform }) => {
  const app = fastify as unknown as App;
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  requireAuth(app);
};

export default emailService;
