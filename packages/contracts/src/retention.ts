import { Type, type Static } from '@sinclair/typebox';

/** The longest retention an owner can choose: ten years (anything longer is "para siempre"). */
export const RETENTION_DAYS_MAX = 3650;
/** The choices the settings card offers; any whole number of days in range is accepted by the API. */
export const RETENTION_DAY_CHOICES = [30, 90, 180, 365] as const;

const DAYS_MESSAGE = `Elige "Para siempre" o un número entero de días entre 1 y ${RETENTION_DAYS_MAX}`;
const days = (field: string) =>
  Type.Union(
    [
      Type.Integer({ minimum: 1, maximum: RETENTION_DAYS_MAX, messages: { type: DAYS_MESSAGE, minimum: DAYS_MESSAGE, maximum: DAYS_MESSAGE } }),
      Type.Null(),
    ],
    { messages: { anyOf: DAYS_MESSAGE, required: `Falta "${field}": elige "Para siempre" o un número de días` } },
  );

/**
 * How long the owner's data is kept, per kind, in days; `null` keeps it forever (the default). A daily job
 * in each service that holds the data erases what is older; analytics totals are never erased.
 */
export const RetentionSettings = Type.Object(
  {
    whatsappDays: days('whatsappDays'),
    emailBodyDays: days('emailBodyDays'),
    aiRunDays: days('aiRunDays'),
  },
  { additionalProperties: false },
);
export type RetentionSettings = Static<typeof RetentionSettings>;

export const FOREVER: RetentionSettings = { whatsappDays: null, emailBodyDays: null, aiRunDays: null };

/** GET /whatsapp|emails|ai/retention/preview?days=N: the days a lowered retention would keep. */
export const RetentionPreviewQuery = Type.Object(
  {
    days: Type.Integer({
      minimum: 1,
      maximum: RETENTION_DAYS_MAX,
      messages: { type: DAYS_MESSAGE, minimum: DAYS_MESSAGE, maximum: DAYS_MESSAGE, required: 'Falta "days": el número de días que se conservarían' },
    }),
  },
  { additionalProperties: false },
);
export type RetentionPreviewQuery = Static<typeof RetentionPreviewQuery>;

/**
 * What a retention of `days` would erase of the service's data as it is now (WhatsApp messages, mail bodies,
 * assistant runs, all older than `before`): the card warns with it before the owner saves a shorter period.
 */
export const RetentionPreview = Type.Object({
  days: Type.Integer(),
  before: Type.String({ format: 'date-time' }),
  count: Type.Integer({ minimum: 0 }),
});
export type RetentionPreview = Static<typeof RetentionPreview>;
