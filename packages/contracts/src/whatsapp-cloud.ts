import { Type, type Static } from '@sinclair/typebox';

/** The reason a free-text send is refused once the customer-service window has closed (Meta's 24-hour rule). */
export const CLOUD_WINDOW_CLOSED =
  'Han pasado más de 24 horas desde el último mensaje de este cliente: WhatsApp solo permite enviarle una plantilla aprobada';
/** Meta's customer-service window: free text is allowed this long after the customer's last message. */
export const CLOUD_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Variables one template send carries at most (Meta's own limit per component is far above what a form fills). */
export const CLOUD_TEMPLATE_VARIABLES_MAX = 20;

const NO_NUL = '^[^\\u0000]*$';
const graphId = (message: string) =>
  Type.String({ pattern: '^[0-9]{5,30}$', messages: { type: message, pattern: message } });

export const CloudConnectBody = Type.Object(
  {
    phoneNumberId: graphId('El identificador del número de teléfono debe tener solo dígitos'),
    businessAccountId: graphId('El identificador de la cuenta de WhatsApp Business debe tener solo dígitos'),
    accessToken: Type.String({
      minLength: 20,
      maxLength: 2000,
      pattern: '^[A-Za-z0-9._|-]+$',
      messages: {
        type: 'Pega el token de acceso de la API de WhatsApp',
        minLength: 'El token de acceso es demasiado corto',
        maxLength: 'El token de acceso es demasiado largo',
        pattern: 'El token de acceso contiene caracteres no válidos',
      },
    }),
  },
  { additionalProperties: false },
);
export type CloudConnectBody = Static<typeof CloudConnectBody>;

/** The number as Meta knows it, once connected. */
export const CloudConnectResult = Type.Object({
  connected: Type.Literal(true),
  provider: Type.Literal('cloud'),
  phone: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  qualityRating: Type.Union([Type.String(), Type.Null()]),
});
export type CloudConnectResult = Static<typeof CloudConnectResult>;

/** An approved message template of the workspace's WhatsApp Business account. */
export const CloudTemplate = Type.Object({
  name: Type.String(),
  language: Type.String(),
  category: Type.String(),
  /** The body's text with its placeholders (`{{1}}`, `{{2}}`…) as Meta stores it. */
  body: Type.String(),
  /** How many values the body's placeholders ask for, in order. */
  variables: Type.Integer(),
});
export type CloudTemplate = Static<typeof CloudTemplate>;

export const CloudTemplateList = Type.Object({ data: Type.Array(CloudTemplate) });
export type CloudTemplateList = Static<typeof CloudTemplateList>;

const recipient = (message: string, max: number) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: max, pattern: NO_NUL, messages: { type: message, minLength: message, pattern: message } }));

/** A template sent to one recipient (the same three ways `POST /whatsapp/messages` names one), with its variables. */
export const CloudTemplateSendBody = Type.Object(
  {
    jid: recipient('Destinatario inválido', 200),
    handle: recipient('Destinatario inválido', 200),
    phoneNumber: recipient('Número de teléfono inválido', 40),
    name: Type.String({ minLength: 1, maxLength: 512, pattern: '^[a-z0-9_]+$', messages: { type: 'Elige una plantilla', minLength: 'Elige una plantilla', pattern: 'Plantilla inválida' } }),
    language: Type.String({ minLength: 2, maxLength: 15, pattern: '^[a-zA-Z_]+$', messages: { type: 'Idioma de la plantilla inválido', minLength: 'Idioma de la plantilla inválido', pattern: 'Idioma de la plantilla inválido' } }),
    variables: Type.Array(
      Type.String({ minLength: 1, maxLength: 1024, pattern: NO_NUL, messages: { type: 'Completa las variables de la plantilla', minLength: 'Completa las variables de la plantilla', pattern: 'Las variables contienen caracteres no válidos' } }),
      { maxItems: CLOUD_TEMPLATE_VARIABLES_MAX, default: [], messages: { type: 'Variables inválidas', maxItems: 'Demasiadas variables' } },
    ),
    origin: Type.Optional(Type.Union([Type.Literal('app'), Type.Literal('ai')], { messages: { type: 'Origen inválido' } })),
    clientMessageId: Type.Optional(Type.String({ format: 'uuid', messages: { format: 'Identificador inválido', type: 'Identificador inválido' } })),
  },
  { additionalProperties: false },
);
export type CloudTemplateSendBody = Static<typeof CloudTemplateSendBody>;

/** Whether the customer-service window is open for one recipient (the send box offers templates when not). */
export const CloudWindowQuery = Type.Object({
  jid: Type.String({ minLength: 3, maxLength: 200, pattern: NO_NUL, messages: { type: 'Destinatario inválido', minLength: 'Destinatario inválido', pattern: 'Destinatario inválido' } }),
});
export type CloudWindowQuery = Static<typeof CloudWindowQuery>;

export const CloudWindow = Type.Object({
  open: Type.Boolean(),
  /** When the window closes (or closed); null when the customer never wrote. */
  closesAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type CloudWindow = Static<typeof CloudWindow>;

