import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { LIMITS, tooLong } from '../../lib/limits';
import { toast } from '../../lib/toasts';
import { isEmail, type FieldErrors } from '../../lib/validation';
import { Button } from '../../ui/Button';
import { focusFirstInvalid } from '../../ui/focus';
import { FormError } from '../../ui/FormError';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { useForm } from '../../ui/use-form';
import { createContact, updateContact } from './api';
import { addTag, TagInput } from './TagInput';
import type { Contact, ContactInput } from './types';

type ContactForm = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
};

function validate(form: ContactForm): FieldErrors<keyof ContactForm> {
  return {
    firstName: form.firstName.trim() ? undefined : 'El nombre es requerido',
    lastName: form.lastName.trim() ? undefined : 'El apellido es requerido',
    email: form.email.trim() && !isEmail(form.email) ? 'Correo inválido' : undefined,
  };
}

const orNull = (value: string) => value.trim() || null;

interface ContactModalProps {
  /** The contact to edit; absent for a new one. */
  contact?: Contact | undefined;
  onClose: () => void;
  onSaved: () => void;
}

export function ContactModal({ contact, onClose, onSaved }: ContactModalProps) {
  const { formRef, values: form, bind, check, dirty } = useForm<ContactForm>({
    firstName: contact?.firstName ?? '',
    lastName: contact?.lastName ?? '',
    email: contact?.email ?? '',
    phone: contact?.phone ?? '',
    company: contact?.company ?? '',
  }, validate);
  const [tags, setTags] = useState<string[]>(contact?.tags ?? []);
  const [tagDraft, setTagDraft] = useState('');
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const tagsChanged = tags.join('\n') !== (contact?.tags ?? []).join('\n') || tagDraft.trim() !== '';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    if (tooLong(tagDraft, LIMITS.tag)) {
      focusFirstInvalid(formRef.current);
      return;
    }
    const input: ContactInput = {
      firstName: form.firstName.trim(),
      lastName: form.lastName.trim(),
      email: orNull(form.email),
      phone: orNull(form.phone),
      company: orNull(form.company),
      tags: addTag(tags, tagDraft),
    };
    setSaving(true);
    try {
      if (contact) await updateContact(contact.id, input);
      else await createContact(input);
      toast.success(contact ? 'Contacto actualizado' : 'Contacto creado');
      onSaved();
    } catch (err) {
      // Shown in the dialog and focused there, so nothing typed is lost and the reason is read out.
      setServerError(errorMessage(err));
      setSaving(false);
    }
  };

  return (
    <Modal title={contact ? 'Editar Contacto' : 'Nuevo Contacto'} onClose={onClose} dirty={dirty || tagsChanged}>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <FormError message={serverError} />
        <div className="form-row">
          <TextField label="Nombre" autoFocus {...bind('firstName')} />
          <TextField label="Apellido" {...bind('lastName')} />
        </div>
        <TextField label="Correo electrónico" type="email" {...bind('email')} />
        <div className="form-row">
          <TextField label="Teléfono" type="tel" {...bind('phone')} />
          <TextField label="Empresa" {...bind('company')} />
        </div>
        <TagInput tags={tags} onChange={setTags} draft={tagDraft} onDraft={setTagDraft} />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Guardando...' : contact ? 'Guardar Cambios' : 'Crear Contacto'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
