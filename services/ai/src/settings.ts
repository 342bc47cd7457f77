import { defineSettings } from '@asistente/kit';
import { Type } from '@sinclair/typebox';

/** What the assistant reads from the environment, besides the platform's config. */
export const settings = defineSettings({
  /** OpenAI-compatible API root (a proxy, an Azure-compatible endpoint, a test peer); the SDK's default otherwise. */
  OPENAI_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
});
