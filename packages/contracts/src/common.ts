import { Type, type Static } from '@sinclair/typebox';

/** Every error the API answers, from any service or the gateway. */
export const ErrorResponse = Type.Object({
  statusCode: Type.Integer(),
  code: Type.String(),
  error: Type.String(),
  message: Type.String(),
});
export type ErrorResponse = Static<typeof ErrorResponse>;

export const IdParams = Type.Object({
  id: Type.String({ format: 'uuid', messages: { format: 'Identificador inválido' } }),
});
export type IdParams = Static<typeof IdParams>;

/** Same pattern the web forms use, so the server never accepts what the UI would refuse. */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';

export const SuccessResponse = Type.Object({ success: Type.Literal(true) });
