import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_PATTERN } from './common.js';
import { literalUnion, spokenList } from './literals.js';

// --- Constants (spec section 9) -------------------------------------------------------------------------

export const EMAILS_PAGE_SIZE = 20;
export const EMAILS_SCREEN_PAGE_SIZE = 50;
export const EMAILS_MAX_LIMIT = 100;
export const EMAIL_PREVIEW_LENGTH = 50;
export const EMAIL_TEMPLATES_SHOWN = 5;
/** All attachments of one outgoing mail together, decoded. */
export const EMAIL_ATTACHMENTS_MAX_BYTES = 25 * 1024 * 1024;

// Literal tuples written out (a union built from a mapped array reads as never in Fastify's type provider).
const folderChoice = { messages: { const: 'Carpeta inválida: usa inbox, sent, drafts o trash', type: 'Carpeta inválida: usa inbox, sent, drafts o trash' } };
export const MailFolder = Type.Union([
  Type.Literal('inbox', folderChoice),
  Type.Literal('sent', folderChoice),
  Type.Literal('drafts', folderChoice),
  Type.Literal('trash', folderChoice),
]);
export type MailFolder = Static<typeof MailFolder>;
export const MAIL_FOLDERS: MailFolder[] = ['inbox', 'sent', 'drafts', 'trash'];

/** The mail providers: one list, which the accounts, the domain events and the webhooks read. */
export const MAIL_PROVIDERS = ['gmail', 'outlook', 'imap'] as const;
export const MailProviderName = literalUnion(MAIL_PROVIDERS);
export type MailProviderName = Static<typeof MailProviderName>;
/** The providers connected by signing in with the provider (OAuth), not with a server and a password. */
export const OAUTH_MAIL_PROVIDERS = ['gmail', 'outlook'] as const satisfies readonly MailProviderName[];

// --- Accounts -------------------------------------------------------------------------------------------

export const EmailIntegration = Type.Object({
  id: Type.String({ format: 'uuid' }),
  provider: MailProviderName,
  email: Type.String(),
  connected: Type.Boolean(),
  lastSyncAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  /** Open and click tracking of the mail sent from this account, unless a mail says otherwise (off for new accounts). */
  tracking: Type.Boolean(),
  /**
   * The first sync (or a folder's resync after a UIDVALIDITY change) in progress: mails in its window and how
   * many are stored so far. Null otherwise; an account not synced yet has `lastSyncAt` null.
   */
  sync: Type.Union([Type.Object({ stored: Type.Integer(), total: Type.Integer() }), Type.Null()]),
});
export type EmailIntegration = Static<typeof EmailIntegration>;

/** GET /emails/integrations: the route's response and what a sibling reads it as, one schema. */
export const EmailIntegrationList = Type.Array(EmailIntegration);
export type EmailIntegrationList = Static<typeof EmailIntegrationList>;

/** The account's tracking switch. */
export const TrackingSettingBody = Type.Object(
  { tracking: Type.Boolean({ messages: { type: 'El campo "tracking" debe ser verdadero o falso', required: 'El campo "tracking" es requerido' } }) },
  { additionalProperties: false },
);
export type TrackingSettingBody = Static<typeof TrackingSettingBody>;

const hostField = Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.:\\[\\]-]+$', messages: { minLength: 'El servidor es requerido', pattern: 'Servidor inválido', required: 'El servidor es requerido' } });
const serverSettings = Type.Object(
  {
    host: hostField,
    port: Type.Integer({ minimum: 1, maximum: 65535, messages: { minimum: 'Puerto inválido', maximum: 'Puerto inválido', type: 'Puerto inválido', required: 'El puerto es requerido' } }),
    secure: Type.Boolean({ messages: { type: 'El campo "secure" debe ser verdadero o falso' } }),
    user: Type.String({ minLength: 1, maxLength: 320, messages: { minLength: 'El usuario es requerido', required: 'El usuario es requerido' } }),
    password: Type.String({ minLength: 1, maxLength: 1000, messages: { minLength: 'La contraseña es requerida', required: 'La contraseña es requerida' } }),
  },
  { additionalProperties: false },
);

export const ImapIntegrationBody = Type.Object(
  {
    provider: Type.Literal('imap', { messages: { const: 'Proveedor inválido: usa imap (Gmail y Outlook se conectan con su botón)' } }),
    credentials: Type.Object(
      {
        email: Type.String({ maxLength: 254, pattern: EMAIL_PATTERN, messages: { pattern: 'Correo inválido', required: 'El correo es requerido' } }),
        imap: serverSettings,
        smtp: serverSettings,
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type ImapIntegrationBody = Static<typeof ImapIntegrationBody>;

export const OAuthProviderParams = Type.Object({
  provider: literalUnion(OAUTH_MAIL_PROVIDERS, { messages: { const: `Proveedor inválido: usa ${spokenList(OAUTH_MAIL_PROVIDERS)}` } }),
});
export type OAuthProviderParams = Static<typeof OAuthProviderParams>;

export const OAuthCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4000 })),
  state: Type.Optional(Type.String({ maxLength: 4000 })),
  error: Type.Optional(Type.String({ maxLength: 500 })),
});
export type OAuthCallbackQuery = Static<typeof OAuthCallbackQuery>;

export const AuthorizationUrl = Type.Object({ url: Type.String() });

/** Whether Gmail and Outlook can be connected here, and if not what the administrator must set. */
const ProviderAvailability = Type.Object({ configured: Type.Boolean(), message: Type.Union([Type.String(), Type.Null()]) });
export const OAuthProvidersStatus = Type.Object({ gmail: ProviderAvailability, outlook: ProviderAvailability });
export type OAuthProvidersStatus = Static<typeof OAuthProvidersStatus>;

// --- Messages -------------------------------------------------------------------------------------------

export const EmailListQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: EMAILS_MAX_LIMIT, default: EMAILS_PAGE_SIZE }),
  folder: Type.Union(
    [Type.Literal('inbox', folderChoice), Type.Literal('sent', folderChoice), Type.Literal('drafts', folderChoice), Type.Literal('trash', folderChoice)],
    { default: 'inbox' },
  ),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  /** Only mail from or to exactly this address (the assistant bound to one customer). */
  address: Type.Optional(Type.String({ maxLength: 254, pattern: EMAIL_PATTERN, messages: { pattern: 'Correo inválido', maxLength: 'Correo inválido', type: 'Correo inválido' } })),
});
export type EmailListQuery = Static<typeof EmailListQuery>;

export const EmailSummary = Type.Object({
  id: Type.String({ format: 'uuid' }),
  from: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  preview: Type.String(),
  isRead: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  hasAttachments: Type.Boolean(),
});
export type EmailSummary = Static<typeof EmailSummary>;

export const EmailList = Type.Object({
  data: Type.Array(EmailSummary),
  pagination: Type.Object({ total: Type.Integer(), page: Type.Integer(), limit: Type.Integer() }),
  /** Unread mail in the inbox (whatever folder was asked for). */
  unread: Type.Integer(),
});
export type EmailList = Static<typeof EmailList>;

export const EmailAttachmentInfo = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  size: Type.Integer(),
  contentType: Type.String(),
});
export type EmailAttachmentInfo = Static<typeof EmailAttachmentInfo>;

export const EmailDetail = Type.Object({
  id: Type.String({ format: 'uuid' }),
  from: Type.String(),
  to: Type.String(),
  cc: Type.String(),
  subject: Type.String(),
  /** HTML sanitised on the server: no scripts, no handlers, remote images only when `images=1`. */
  body: Type.String(),
  isRead: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  attachments: Type.Array(EmailAttachmentInfo),
  folder: MailFolder,
  /** The owner's mailbox it belongs to (a reply or a continued draft goes from it, with its tracking choice). */
  accountId: Type.String({ format: 'uuid' }),
  /** Remote images were found and left out (the reading pane offers to show them). */
  remoteImagesBlocked: Type.Boolean(),
  /**
   * Only on a mail over MAIL_MAX_MESSAGE_BYTES: `body` is the start of its text (1 MB at most) and each
   * attachment is fetched from the mail server when downloaded.
   */
  partial: Type.Optional(Type.Literal(true)),
  /** Drafts only: the text as written, for the compose modal to continue it. */
  text: Type.Optional(Type.String()),
});
export type EmailDetail = Static<typeof EmailDetail>;

export const EmailDetailQuery = Type.Object({
  images: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')])),
});

export const EmailAttachmentParams = Type.Object({
  id: Type.String({ format: 'uuid', messages: { format: 'Identificador inválido' } }),
  attachmentId: Type.String({ format: 'uuid', messages: { format: 'Identificador inválido' } }),
});

const recipients = (required: string) =>
  Type.String({ minLength: 1, maxLength: 4000, messages: { minLength: required, required, type: required } });

export const OutgoingAttachment = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: 255, messages: { required: 'El nombre del adjunto es requerido', minLength: 'El nombre del adjunto es requerido' } }),
    contentType: Type.Optional(Type.String({ maxLength: 255 })),
    /** base64 */
    content: Type.String({ maxLength: 36_000_000, pattern: '^[A-Za-z0-9+/=\\r\\n]*$', messages: { pattern: 'El adjunto debe ir en base64', maxLength: 'Los adjuntos superan el límite de 25 MB' } }),
  },
  { additionalProperties: false },
);
export type OutgoingAttachment = Static<typeof OutgoingAttachment>;

export const SendEmailBody = Type.Object(
  {
    /** One address or several separated by commas. */
    to: recipients('El destinatario es requerido'),
    cc: Type.Optional(Type.String({ maxLength: 4000 })),
    subject: Type.String({ minLength: 1, maxLength: 998, messages: { minLength: 'El asunto es requerido', required: 'El asunto es requerido' } }),
    body: Type.String({ minLength: 1, maxLength: 2_000_000, messages: { minLength: 'El mensaje es requerido', required: 'El mensaje es requerido' } }),
    attachments: Type.Optional(Type.Array(OutgoingAttachment, { maxItems: 50 })),
    /** Tracking pixel and rewritten links (default: the sending account's setting, off unless the owner turned it on). */
    track: Type.Optional(Type.Boolean()),
    /**
     * `{variables}` in the subject and text are filled on the server for each recipient from their contact, one
     * mail per recipient in `to`. A variable left without a value answers 409 EMAIL_UNRESOLVED_VARIABLES naming
     * it, and nothing is sent, unless this is true (the owner confirmed sending it as written).
     */
    allowUnresolved: Type.Optional(Type.Boolean({ messages: { type: 'El campo "allowUnresolved" debe ser verdadero o falso' } })),
    /** The owner's account to send from (default: the first connected). */
    accountId: Type.Optional(Type.String({ format: 'uuid', messages: { format: 'Cuenta de correo inválida' } })),
    /** The draft this mail was written from: removed from Drafts once sent. */
    draftId: Type.Optional(Type.String({ format: 'uuid', messages: { format: 'Borrador inválido' } })),
  },
  { additionalProperties: false },
);
export type SendEmailBody = Static<typeof SendEmailBody>;

/**
 * Headers of a send, reply or forward: a request retried with the same Idempotency-Key answers the first
 * one's result and sends nothing again (keys are kept for a day).
 */
export const SendHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$', messages: { minLength: 'Clave de idempotencia inválida', maxLength: 'Clave de idempotencia inválida', pattern: 'Clave de idempotencia inválida' } }),
  ),
});
export type SendHeaders = Static<typeof SendHeaders>;

/** A draft may be unfinished: every field optional, addresses checked when present. */
export const SaveDraftBody = Type.Object(
  {
    to: Type.Optional(Type.String({ maxLength: 4000 })),
    cc: Type.Optional(Type.String({ maxLength: 4000 })),
    subject: Type.Optional(Type.String({ maxLength: 998 })),
    body: Type.Optional(Type.String({ maxLength: 2_000_000 })),
    accountId: Type.Optional(Type.String({ format: 'uuid', messages: { format: 'Cuenta de correo inválida' } })),
    /** The previous version of this draft, replaced on the server. */
    draftId: Type.Optional(Type.String({ format: 'uuid', messages: { format: 'Borrador inválido' } })),
  },
  { additionalProperties: false },
);
export type SaveDraftBody = Static<typeof SaveDraftBody>;

export const DraftSaved = Type.Object({ success: Type.Literal(true), id: Type.String({ format: 'uuid' }) });
export type DraftSaved = Static<typeof DraftSaved>;

export const ReplyBody = Type.Object(
  {
    body: Type.String({ minLength: 1, maxLength: 2_000_000, messages: { minLength: 'El mensaje es requerido', required: 'El mensaje es requerido' } }),
    all: Type.Optional(Type.Boolean()),
    track: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ReplyBody = Static<typeof ReplyBody>;

export const ForwardBody = Type.Object(
  {
    to: recipients('El destinatario es requerido'),
    body: Type.String({ maxLength: 2_000_000, messages: { required: 'El mensaje es requerido' } }),
    track: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ForwardBody = Static<typeof ForwardBody>;

export const EmailSent = Type.Object({ success: Type.Literal(true), messageId: Type.String() });
export type EmailSent = Static<typeof EmailSent>;

export const EmailDeleted = Type.Object({ success: Type.Literal(true), permanently: Type.Boolean() });

// --- Templates ------------------------------------------------------------------------------------------

export const EmailTemplate = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type EmailTemplate = Static<typeof EmailTemplate>;

export const EmailTemplateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, messages: { minLength: 'El nombre es requerido', required: 'El nombre es requerido' } }),
    subject: Type.String({ minLength: 1, maxLength: 998, messages: { minLength: 'El asunto es requerido', required: 'El asunto es requerido' } }),
    body: Type.String({ minLength: 1, maxLength: 200_000, messages: { minLength: 'El mensaje es requerido', required: 'El mensaje es requerido' } }),
  },
  { additionalProperties: false },
);
export type EmailTemplateBody = Static<typeof EmailTemplateBody>;

export const TemplateFillQuery = Type.Object({
  to: Type.Optional(Type.String({ maxLength: 254 })),
});

export const FilledTemplate = Type.Object({ subject: Type.String(), body: Type.String(), contactFound: Type.Boolean() });
export type FilledTemplate = Static<typeof FilledTemplate>;

/** Variables the contact of each recipient fills (`{nombre_cliente}`…); any other `{palabra}` stays unresolved. */
export const EMAIL_CONTACT_VARIABLES = ['nombre_cliente', 'nombre', 'apellido', 'empresa', 'correo', 'telefono'] as const;

/** Redactar's preview: the mail as it is written now, filled for the first recipient. */
export const EmailPreviewBody = Type.Object(
  {
    to: Type.String({ maxLength: 4000 }),
    subject: Type.String({ maxLength: 998 }),
    body: Type.String({ maxLength: 2_000_000 }),
  },
  { additionalProperties: false },
);
export type EmailPreviewBody = Static<typeof EmailPreviewBody>;

export const EmailPreview = Type.Object({
  /** The first recipient as typed; null when none is typed yet (or it is not an address). */
  recipient: Type.Union([Type.String(), Type.Null()]),
  /** Whether a contact has that address. */
  contactFound: Type.Boolean(),
  subject: Type.String(),
  body: Type.String(),
  /** Variables still without a value for that recipient, as written (`{producto}`). */
  unresolved: Type.Array(Type.String()),
});
export type EmailPreview = Static<typeof EmailPreview>;
