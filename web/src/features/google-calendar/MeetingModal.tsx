import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { fromLocalInput, nextHourSlot } from '../../lib/local-datetime';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { useForm } from '../../ui/use-form';
import { createMeeting } from './api';
import { attendeesError, splitAttendees, validateTimed } from './event-validation';

interface MeetingModalProps {
  onClose: () => void;
  onCreated: () => void;
}

type MeetingFields = { title: string; start: string; end: string; attendees: string };

const validate = (form: MeetingFields) => ({ ...validateTimed(form), attendees: attendeesError(form.attendees) });

/** 'Nueva Reunión Google Meet': an event with a Meet link, invitations emailed to the attendees. */
export function MeetingModal({ onClose, onCreated }: MeetingModalProps) {
  const slot = nextHourSlot();
  const { formRef, values, bind, check, dirty } = useForm<MeetingFields>(
    { title: '', start: slot.start, end: slot.end, attendees: '' },
    validate,
  );
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const descriptionId = useId();
  const [description, setDescription] = useState('');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    setSaving(true);
    try {
      await createMeeting({
        title: values.title.trim(),
        startTime: fromLocalInput(values.start)!,
        endTime: fromLocalInput(values.end)!,
        attendees: splitAttendees(values.attendees),
        description: description.trim(),
      });
      toast.success('Reunión de Meet creada');
      onCreated();
    } catch (err) {
      setServerError(errorMessage(err));
      setSaving(false);
    }
  };

  return (
    <Modal title="Nueva Reunión Google Meet" onClose={onClose} dirty={dirty || description !== ''}>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        {serverError && <p className="form-error" role="alert">{serverError}</p>}
        <TextField label="Título" autoFocus {...bind('title')} />
        <div className="form-row">
          <TextField label="Inicio" type="datetime-local" {...bind('start')} />
          <TextField label="Fin" type="datetime-local" {...bind('end')} />
        </div>
        <TextField label="Asistentes" placeholder="ana@empresa.com, luis@empresa.com" hint="Correos separados por comas" {...bind('attendees')} />
        <div className="field">
          <label htmlFor={descriptionId}>Descripción</label>
          <textarea id={descriptionId} rows={3} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </div>
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Creando...' : 'Crear Reunión'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
