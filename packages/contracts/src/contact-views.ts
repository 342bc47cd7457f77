import { Type, type Static } from '@sinclair/typebox';

/** Saved views of the contacts list: a named search + tag filter + sort, per user. */
export const CONTACT_VIEWS_MAX = 50;

const ViewName = Type.String({
  minLength: 1,
  maxLength: 60,
  pattern: '\\S',
  messages: { required: 'El nombre de la vista es requerido', minLength: 'El nombre de la vista es requerido', pattern: 'El nombre de la vista es requerido', maxLength: 'El nombre de la vista admite como máximo 60 caracteres' },
});
const ViewSort = Type.Union([Type.Literal('createdAt'), Type.Literal('name'), Type.Literal('company')]);
const ViewOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
/** No control characters: PostgreSQL refuses NUL, and none belongs in a search. */
const QUERY_TEXT = '^[^\\u0000-\\u001f\\u007f]*$';

export const ContactViewBody = Type.Object(
  {
    name: ViewName,
    search: Type.Optional(Type.String({ maxLength: 100, pattern: QUERY_TEXT, messages: { maxLength: 'La búsqueda admite como máximo 100 caracteres', pattern: 'La búsqueda contiene caracteres no válidos' } })),
    tag: Type.Optional(Type.String({ maxLength: 50, pattern: QUERY_TEXT, messages: { maxLength: 'La etiqueta admite como máximo 50 caracteres', pattern: 'La etiqueta contiene caracteres no válidos' } })),
    sort: Type.Optional(ViewSort),
    order: Type.Optional(ViewOrder),
  },
  { additionalProperties: false },
);
export type ContactViewBody = Static<typeof ContactViewBody>;

export const ContactView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  search: Type.String(),
  tag: Type.String(),
  sort: ViewSort,
  order: ViewOrder,
  createdAt: Type.String(),
});
export type ContactView = Static<typeof ContactView>;

export const ContactViewList = Type.Object({ views: Type.Array(ContactView) });
export type ContactViewList = Static<typeof ContactViewList>;

/** What the import would read from a file, before anything is written: the mapping step's preview. */
export const IMPORT_PREVIEW_ROWS = 5;
export const ImportPreview = Type.Object({
  format: Type.Union([Type.Literal('csv'), Type.Literal('vcard')]),
  /** Header cells as written (empty for a vCard, whose fields are fixed). */
  headers: Type.Array(Type.String()),
  /** Field proposed for each header, in order ('' = none): the same recognition the import applies. */
  mapping: Type.Array(
    Type.Union([
      Type.Literal('firstName'),
      Type.Literal('lastName'),
      Type.Literal('email'),
      Type.Literal('phone'),
      Type.Literal('company'),
      Type.Literal('tags'),
      Type.Literal(''),
    ]),
  ),
  /** Header cells that go to no field. */
  unmapped: Type.Array(Type.String()),
  /** The first rows as cells (CSV), or as fields in CSV_COLUMNS order (vCard). */
  rows: Type.Array(Type.Object({ line: Type.Integer(), cells: Type.Array(Type.String()) })),
});
export type ImportPreview = Static<typeof ImportPreview>;
