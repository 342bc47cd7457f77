import { newPasswordError, personNameError, type FieldErrors } from '../../lib/validation';

/** The account a new person creates from an invitation: the address is the invitation's. */
export type NewMemberForm = { firstName: string; lastName: string; password: string };

export function validateNewMember(form: NewMemberForm): FieldErrors<keyof NewMemberForm> {
  return {
    firstName: personNameError(form.firstName, 'El nombre es requerido'),
    lastName: personNameError(form.lastName, 'El apellido es requerido'),
    password: newPasswordError(form.password),
  };
}
