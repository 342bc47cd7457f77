import { useState, type FormEvent } from 'react';
import { changePassword } from '../../lib/auth';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import type { FieldErrors } from '../../lib/validation';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { PasswordField } from '../../ui/PasswordField';
import { useForm } from '../../ui/use-form';
import { revocationNotice, workingTokens } from './password-change';
import { fetchPersonalTokens } from './personal-tokens';

type Passwords = {
  current: string;
  next: string;
  confirm: string;
};

const EMPTY: Passwords = { current: '', next: '', confirm: '' };

function validate(p: Passwords): FieldErrors<keyof Passwords> {
  return {
    current: p.current ? undefined : 'La contraseña es requerida',
    next: !p.next ? 'La contraseña es requerida' : p.next.length < 6 ? 'Mínimo 6 caracteres' : undefined,
    confirm: !p.confirm ? 'Confirma tu contraseña' : p.confirm !== p.next ? 'Las contraseñas no coinciden' : undefined,
  };
}

export function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const { formRef, values: passwords, bind, check, reset } = useForm(EMPTY, validate);
  const [saving, setSaving] = useState(false);
  /** Tokens the change would revoke, while the owner is asked to confirm (null: their count is unknown). */
  const [confirming, setConfirming] = useState<{ tokens: number | null } | null>(null);

  const save = async () => {
    setSaving(true);
    try {
      await changePassword(passwords.current, passwords.next);
      toast.success('Contraseña actualizada');
      reset();
      onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setSaving(false);
      setConfirming(null);
    }
  };

  // Counted when the owner submits, so a token made on this screen a moment ago is counted too.
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    setSaving(true);
    const tokens = await fetchPersonalTokens().then((list) => workingTokens(list), () => null);
    setSaving(false);
    if (tokens === 0) await save();
    else setConfirming({ tokens });
  };

  return (
    <section className="card" aria-labelledby="cambiar-contrasena">
      <h2 id="cambiar-contrasena" className="card-title">
        Cambiar Contraseña
      </h2>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <PasswordField label="Contraseña actual" autoComplete="current-password" {...bind('current')} />
        <PasswordField label="Nueva contraseña" autoComplete="new-password" {...bind('next')} />
        <PasswordField label="Confirmar nueva contraseña" autoComplete="new-password" {...bind('confirm')} />
        <div className="form-actions">
          <Button type="submit" disabled={saving}>
            {saving ? 'Actualizando...' : 'Actualizar Contraseña'}
          </Button>
        </div>
      </form>
      {confirming && (
        <ConfirmDialog
          title="Cambiar contraseña"
          message={revocationNotice(confirming.tokens)}
          confirmLabel="Cambiar contraseña"
          busy={saving}
          onConfirm={() => void save()}
          onCancel={() => setConfirming(null)}
        />
      )}
    </section>
  );
}
