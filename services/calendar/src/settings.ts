import { GOOGLE_SETTINGS } from '@asistente/contracts';
import { defineSettings } from '@asistente/kit';

/** What calendar reads from the environment, besides the platform's config: the Google app (shared with email). */
export const settings = defineSettings({ ...GOOGLE_SETTINGS });
