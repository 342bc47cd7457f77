import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { createCaldavCalendar } from './api';

/** As the server checks it (the contract's CaldavCalendarBody): said here before anything is sent. */
const NAME_MAX = 100;

function nameProblem(name: string): string | null {
  if (!name.trim()) return 'Indica el nombre del calendario';
  if (name.trim().length > NAME_MAX) return `El nombre del calendario es demasiado largo (máximo ${NAME_MAX} caracteres)`;
  return null;
}

/**
 * A connected CalDAV server with no calendar (a new Radicale, a Nextcloud account never opened): said plainly,
 * with a calendar made there from here, so the account is not a dead end without events.
 */
export function CaldavNewCalendar({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = nameProblem(name);
    setProblem(invalid);
    if (invalid) return;
    setBusy(true);
    setError(null);
    try {
      const calendar = await createCaldavCalendar(name.trim());
      toast.success(`Calendario «${calendar.name}» creado`);
      setName('');
      onCreated();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="caldav-form caldav-new-calendar" onSubmit={(e) => void create(e)} noValidate aria-label="Crear calendario CalDAV">
      <p role="status">Tu servidor CalDAV no tiene ningún calendario todavía. Crea uno para guardar tus eventos en él.</p>
      <TextField label="Nombre del calendario" value={name} onChange={(e) => setName(e.target.value)} placeholder="Citas" error={problem ?? undefined} />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="cal-card-actions">
        <Button type="submit" small disabled={busy}>
          {busy ? 'Creando...' : 'Crear calendario'}
        </Button>
      </div>
    </form>
  );
}
