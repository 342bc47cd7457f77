import { useState, type FormEvent } from 'react';
import { updateProfile } from '../../lib/auth';
import { errorMessage } from '../../lib/errors';
import type { User } from '../../lib/types';
import { toast } from '../../lib/toasts';
import type { FieldErrors } from '../../lib/validation';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { useForm } from '../../ui/use-form';

type Profile = {
  firstName: string;
  lastName: string;
  company: string;
  phone: string;
};

function validate(p: Profile): FieldErrors<keyof Profile> {
  const name = (value: string, required: string) =>
    !value.trim() ? required : value.trim().length < 2 ? 'Mínimo 2 caracteres' : undefined;
  return { firstName: name(p.firstName, 'El nombre es requerido'), lastName: name(p.lastName, 'El apellido es requerido') };
}

export function ProfileForm({ user }: { user: User }) {
  const initial: Profile = { firstName: user.firstName, lastName: user.lastName, company: user.company ?? '', phone: user.phone ?? '' };
  const { formRef, values: profile, bind, check } = useForm(initial, validate);
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    setSaving(true);
    try {
      await updateProfile({
        firstName: profile.firstName.trim(),
        lastName: profile.lastName.trim(),
        company: profile.company.trim() || null,
        phone: profile.phone.trim() || null,
      });
      toast.success('Perfil actualizado');
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card" aria-labelledby="perfil">
      <h2 id="perfil" className="card-title">
        Perfil
      </h2>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <div className="form-row">
          <TextField label="Nombre" autoComplete="given-name" {...bind('firstName')} />
          <TextField label="Apellido" autoComplete="family-name" {...bind('lastName')} />
        </div>
        <TextField label="Correo electrónico" value={user.email} readOnly hint="El correo de acceso no se puede cambiar." />
        <div className="form-row">
          <TextField label="Empresa" autoComplete="organization" {...bind('company')} />
          <TextField label="Teléfono" type="tel" autoComplete="tel" {...bind('phone')} />
        </div>
        <div className="form-actions">
          <Button type="submit" disabled={saving}>
            {saving ? 'Guardando...' : 'Guardar Cambios'}
          </Button>
        </div>
      </form>
    </section>
  );
}
