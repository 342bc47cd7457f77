import { defineSettings } from '@asistente/kit';
import { Type } from '@sinclair/typebox';

/** What contacts reads from the environment, besides the platform's config. */
export const settings = defineSettings({
  /** Largest CSV/vCard upload POST /contacts/import accepts (64 MiB, ~800,000 contacts); beyond it a 413. */
  CONTACTS_IMPORT_MAX_BYTES: Type.Integer({ minimum: 1024, default: 67_108_864 }),
});
