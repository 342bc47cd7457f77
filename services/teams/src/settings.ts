import { MICROSOFT_SETTINGS } from '@asistente/contracts';
import { defineSettings } from '@asistente/kit';

/** What teams reads from the environment, besides the platform's config: the Microsoft app (shared with email). */
export const settings = defineSettings({ ...MICROSOFT_SETTINGS });
