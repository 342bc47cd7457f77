import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../lib/errors';
import { fromLocalInput, nextHourSlot } from '../lib/local-datetime';
import { toast } from '../lib/toasts';
import { isEmail, timedEventErrors, type FieldErrors } from '../lib/validation';
import { Button } from './Button';
import { Modal } from './Modal';
import { TextField } from './TextField';
import { useForm } from './use-form';

/** What the form holds, trimmed, the instants as ISO text (fields the form does not show stay empty). */
export interface ScheduledForm {
  title: string;
  startTime: string;
  endTime: string;
  attendees: string[];
  description: string;
  location: string;
}

type Fields = { title: string; start: string; end: string; attendees: string; location: string };

/** Spec: attendees are comma-separated emails, trimmed. */
export const splitAttendees = (text: string) =>
  text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);

export interface ScheduleModalProps {
  title: string;
  submitLabel: string;
  /** The toast once saved. */
  savedMessage: string;
  /** With attendees: the field, and its message for a bad address. */
  attendees?: { invalid: string } | undefined;
  description?: boolean;
  location?: boolean;
  onSubmit: (form: ScheduledForm) => Promise<unknown>;
  onClose: () => void;
  onCreated: () => void;
  /** What the form starts with (a meeting planned from a contact: its name and address). */
  initial?: { title?: string; attendees?: string[] } | undefined;
}

/**
 * A new timed event or meeting (Google's 'Nuevo Evento' and Meet meeting, Teams' meeting): title, start and
 * end (from the next working hour), and the attendees, description and location the caller asks for.
 */
export function ScheduleModal({ title, submitLabel, savedMessage, attendees, description: withDescription = false, location = false, onSubmit, onClose, onCreated, initial }: ScheduleModalProps) {
  const slot = nextHourSlot();
  const start: Fields = { title: initial?.title ?? '', start: slot.start, end: slot.end, attendees: initial?.attendees?.join(', ') ?? '', location: '' };
  const validate = (form: Fields): FieldErrors<'title' | 'start' | 'end' | 'attendees'> => ({
    ...timedEventErrors(form),
    attendees: attendees && !splitAttendees(form.attendees).every(isEmail) ? attendees.invalid : undefined,
  });
  const { formRef, values, bind, check, dirty } = useForm<Fields>(start, validate);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const descriptionId = useId();
  const [description, setDescription] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    setSaving(true);
    setServerError(null);
    try {
      await onSubmit({
        title: values.title.trim(),
        startTime: fromLocalInput(values.start)!,
        endTime: fromLocalInput(values.end)!,
        attendees: splitAttendees(values.attendees),
        description: description.trim(),
        location: values.location.trim(),
      });
      toast.success(savedMessage);
      onCreated();
    } catch (err) {
      setServerError(errorMessage(err));
      setSaving(false);
    }
  };

  return (
    <Modal title={title} onClose={onClose} dirty={dirty || description !== ''}>
      <form ref={formRef} onSubmit={submit} noValidate>
        {serverError && (
          <p className="form-error" role="alert">
            {serverError}
          </p>
        )}
        <TextField label="Título" autoFocus {...bind('title')} />
        <div className="form-row">
          <TextField label="Inicio" type="datetime-local" {...bind('start')} />
          <TextField label="Fin" type="datetime-local" {...bind('end')} />
        </div>
        {attendees && <TextField label="Asistentes" placeholder="ana@empresa.com, luis@empresa.com" hint="Correos separados por comas" {...bind('attendees')} />}
        {withDescription && (
          <div className="field">
            <label htmlFor={descriptionId}>Descripción</label>
            <textarea id={descriptionId} rows={3} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          </div>
        )}
        {location && <TextField label="Ubicación" {...bind('location')} />}
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Creando...' : submitLabel}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
