import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_PATTERN } from './common.js';

export const CONTACTS_PAGE_SIZE = 10;
export const CONTACTS_MAX_LIMIT = 100;

export const Contact = Type.Object({
  id: Type.String({ format: 'uuid' }),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  company: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String()),
  /** The phone in E.164 when it is a valid number (`+34611223344`): what one person is matched by across channels. */
  phoneE164: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  notes: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  /**
   * The member (their user id) who created the contact, and the one who last changed it: whoever's request
   * wrote it, an import's member included. Null where no member wrote it (the workspace's own work: WhatsApp's
   * contact sync, the assistant answering a customer) and for contacts from before members were recorded.
   */
  createdBy: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  updatedBy: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
});
export type Contact = Static<typeof Contact>;

const optionalText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

export const ContactBody = Type.Object(
  {
    firstName: Type.String({ maxLength: 100, messages: { required: 'El nombre es requerido' } }),
    lastName: Type.String({ maxLength: 100, messages: { required: 'El apellido es requerido' } }),
    // Empty means "no email"; anything else must look like one.
    email: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 254, pattern: `(${EMAIL_PATTERN})|^\\s*$`, messages: { pattern: 'Correo inválido' } }),
        Type.Null(),
      ]),
    ),
    phone: optionalText(40),
    company: optionalText(120),
    /** Free text; left out of a PUT, the stored notes stay. */
    notes: optionalText(5000),
    tags: Type.Optional(
      Type.Array(Type.String({ maxLength: 50, messages: { maxLength: 'Cada etiqueta admite como máximo 50 caracteres' } }), {
        maxItems: 50,
        messages: { maxItems: 'Máximo 50 etiquetas' },
      }),
    ),
  },
  { additionalProperties: false },
);
export type ContactBody = Static<typeof ContactBody>;

/** List orders: date added (the default, newest first), name (first then last), company. */
export const CONTACT_SORTS = ['createdAt', 'name', 'company'] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];

export const ContactListQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: CONTACTS_MAX_LIMIT, default: CONTACTS_PAGE_SIZE }),
  search: Type.Optional(Type.String({ maxLength: 100 })),
  tag: Type.Optional(Type.String({ maxLength: 50 })),
  sort: Type.Optional(Type.Union(CONTACT_SORTS.map((s) => Type.Literal(s)))),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});
export type ContactListQuery = Static<typeof ContactListQuery>;

/**
 * GET /contacts/by-handle: the contacts a person's handle on a channel (`+34611222333`, as the team inbox names
 * its customers) belongs to, matched exactly on the phone (never a fuzzy search): what binds an assistant run for
 * a customer to that customer's own record.
 */
export const ContactHandleQuery = Type.Object({
  handle: Type.String({
    maxLength: 30,
    pattern: '^\\+\\d{6,20}$',
    messages: { required: 'Indica el contacto (handle)', pattern: 'Identificador de contacto inválido', type: 'Identificador de contacto inválido', maxLength: 'Identificador de contacto inválido' },
  }),
});
export type ContactHandleQuery = Static<typeof ContactHandleQuery>;

export const ContactMatches = Type.Object({ contacts: Type.Array(Contact) });
export type ContactMatches = Static<typeof ContactMatches>;

/** A search or tag filter counts its matches exactly up to this many; beyond it `total` is this and `totalCapped` true ("más de 1000"). */
export const CONTACTS_TOTAL_CAP = 1000;

export const ContactList = Type.Object({
  contacts: Type.Array(Contact),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
  totalCapped: Type.Optional(Type.Boolean()),
});
export type ContactList = Static<typeof ContactList>;

export const ContactStats = Type.Object({
  total: Type.Integer(),
  companies: Type.Integer(),
  tags: Type.Integer(),
  withEmail: Type.Integer(),
});
export type ContactStats = Static<typeof ContactStats>;

export const ContactTags = Type.Object({ tags: Type.Array(Type.String()) });
export type ContactTags = Static<typeof ContactTags>;

export const ImportError = Type.Object({ line: Type.Integer(), message: Type.String() });

/** A valid line the import left alone, and why: the contact it names is already there. */
export const ImportSkip = Type.Object({ line: Type.Integer(), reason: Type.String() });
export type ImportSkip = Static<typeof ImportSkip>;

export const ImportReport = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer(),
  skipped: Type.Integer(),
  errors: Type.Array(ImportError),
  /** Why each skipped line was skipped, by line (present only when some were; the first 1000). */
  skippedLines: Type.Optional(Type.Array(ImportSkip)),
  /** Header cells that went to no field (present only when there are some). */
  unmappedColumns: Type.Optional(Type.Array(Type.String())),
});
export type ImportReport = Static<typeof ImportReport>;

export const ImportQuery = Type.Object({
  dryRun: Type.Boolean({ default: false }),
  /** Column mapping as JSON: `{"Given Name":"firstName","Notas":""}` ('' leaves a column out on purpose). */
  map: Type.Optional(Type.String({ maxLength: 8000 })),
});
export type ImportQuery = Static<typeof ImportQuery>;

/** CSV columns of import and export, and the Spanish headers import also accepts. */
export const CSV_COLUMNS = ['firstName', 'lastName', 'email', 'phone', 'company', 'tags'] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
export const CSV_SPANISH_HEADERS: Record<string, CsvColumn> = {
  nombre: 'firstName',
  apellido: 'lastName',
  correo: 'email',
  telefono: 'phone',
  empresa: 'company',
  etiquetas: 'tags',
};

/** Export formats: `csv` (field-name headers, ',', the CLI's round trip) or `excel` (Spanish headers, ';', for Spanish Excel). */
const FORMAT_INVALID = { messages: { const: 'Formato de exportación no válido: usa csv o excel', type: 'Formato de exportación no válido: usa csv o excel' } };
export const ContactExportFormat = Type.Union([Type.Literal('csv', FORMAT_INVALID), Type.Literal('excel', FORMAT_INVALID)], { default: 'csv' });
export type ContactExportFormat = Static<typeof ContactExportFormat>;

/** A bulk action acts on these contacts: the ids picked (another user's id: 404), or every contact matching a filter ("select all N"). */
export const CONTACTS_BULK_MAX_IDS = 10_000;
export const ContactSelection = Type.Object(
  {
    ids: Type.Optional(Type.Array(Type.String({ format: 'uuid', messages: { format: 'Identificador inválido' } }), { minItems: 1, maxItems: CONTACTS_BULK_MAX_IDS })),
    filter: Type.Optional(
      Type.Object({ search: Type.Optional(Type.String({ maxLength: 100 })), tag: Type.Optional(Type.String({ maxLength: 50 })) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type ContactSelection = Static<typeof ContactSelection>;

export const BulkTagsBody = Type.Object(
  {
    selection: ContactSelection,
    add: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 50 })),
    remove: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
);
export type BulkTagsBody = Static<typeof BulkTagsBody>;

export const BulkDeleteBody = Type.Object({ selection: ContactSelection }, { additionalProperties: false });
export type BulkDeleteBody = Static<typeof BulkDeleteBody>;

/** Seconds during which a bulk delete can be undone with its token. */
export const CONTACTS_UNDO_SECONDS = 600;
export const BulkDeleteResult = Type.Object({ deleted: Type.Integer(), undoToken: Type.String({ format: 'uuid' }), undoUntil: Type.String({ format: 'date-time' }) });
export type BulkDeleteResult = Static<typeof BulkDeleteResult>;

export const BulkRestoreBody = Type.Object({ undoToken: Type.String({ format: 'uuid', messages: { format: 'Identificador inválido' } }) }, { additionalProperties: false });
export type BulkRestoreBody = Static<typeof BulkRestoreBody>;

export const BulkCount = Type.Object({ count: Type.Integer() });
export type BulkCount = Static<typeof BulkCount>;

/** Contacts sharing one phone in E.164, at most 100 groups. */
export const DuplicateGroups = Type.Object({
  groups: Type.Array(Type.Object({ key: Type.String(), contacts: Type.Array(Contact) })),
});
export type DuplicateGroups = Static<typeof DuplicateGroups>;

/** The contacts merged into the one in the path (which is kept). */
export const MergeBody = Type.Object(
  { ids: Type.Array(Type.String({ format: 'uuid', messages: { format: 'Identificador inválido' } }), { minItems: 1, maxItems: 20 }) },
  { additionalProperties: false },
);
export type MergeBody = Static<typeof MergeBody>;

export const TimelineChannel = Type.Union([Type.Literal('whatsapp'), Type.Literal('email'), Type.Literal('calendar')]);
/** What the other services know of a contact; a service absent or failing has no section. */
export const ContactTimeline = Type.Object({
  sections: Type.Array(
    Type.Object({
      channel: TimelineChannel,
      items: Type.Array(
        Type.Object({
          channel: TimelineChannel,
          id: Type.String(),
          at: Type.String(),
          title: Type.String(),
          detail: Type.Optional(Type.String()),
          direction: Type.Optional(Type.Union([Type.Literal('incoming'), Type.Literal('outgoing')])),
        }),
      ),
    }),
  ),
});
export type ContactTimeline = Static<typeof ContactTimeline>;
