import { useId, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { PasswordField } from '../../ui/PasswordField';
import { saveKey } from './api';

/** The server's own words for a rejected key (e.g. 'La API key debe empezar por sk-'); the spec's message otherwise. */
function saveFailure(err: unknown): string {
  return err instanceof ApiError && err.status === 400 ? err.message : 'No se pudo guardar la API key';
}

export function KeyForm({ onSaved }: { onSaved: (last4: string) => void }) {
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [value, setValue] = useState('');
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const apiKey = value.trim();
    if (!apiKey) {
      toast.error('Ingresa tu API key');
      formRef.current?.querySelector('input')?.focus();
      return;
    }
    setSaving(true);
    try {
      const answer = await saveKey(apiKey);
      if (answer.success !== true) throw new Error('La respuesta no confirmó el guardado');
      onSaved(apiKey.slice(-4));
      setValue('');
      toast.success('API key guardada');
    } catch (err) {
      console.error('No se pudo guardar la API key', err);
      toast.error(saveFailure(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Configurar API key
      </h2>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <PasswordField
          label="API key"
          placeholder="sk-..."
          autoComplete="off"
          spellCheck={false}
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
          hint="Tu API key se guarda cifrada con AES-256-GCM en el servidor y solo se muestran sus últimos 4 caracteres."
        />
        <div className="form-actions form-actions-start">
          <Button type="submit" disabled={saving}>
            {saving ? 'Guardando...' : 'Guardar Key'}
          </Button>
          <Button variant="secondary" disabled={saving} onClick={() => setValue('')}>
            Limpiar
          </Button>
        </div>
      </form>
    </section>
  );
}
