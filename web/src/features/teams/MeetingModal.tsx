import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { isEmail } from '../../lib/validation';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { useForm } from '../../ui/use-form';
import { createMeeting } from './api';
import { fromLocalInput, splitAttendees, toLocalInput } from './format';

interface MeetingModalProps {
  onClose: () => void;
  onCreated: () => void;
}

type MeetingFields = { title: string; start: string; end: string; attendees: string };

/** Spec: title, start and end required; attendees split on commas and trimmed. */
function validate(form: MeetingFields) {
  const start = fromLocalInput(form.start);
  const end = fromLocalInput(form.end);
  return {
    title: form.title.trim() ? undefined : 'El título es requerido',
    start: start ? undefined : 'La fecha de inicio es requerida',
    end: !end ? 'La fecha de fin es requerida' : start && end <= start ? 'La fecha de fin debe ser posterior a la de inicio' : undefined,
    attendees: splitAttendees(form.attendees).every(isEmail) ? undefined : 'Correo de asistente inválido',
  };
}

function nextHourSlot(): { start: string; end: string } {
  const start = new Date();
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  return { start: toLocalInput(start), end: toLocalInput(new Date(start.getTime() + 3_600_000)) };
}

/** 'Nueva Reunión': a Teams online meeting in the Outlook calendar, invitations sent by Microsoft. */
export function MeetingModal({ onClose, onCreated }: MeetingModalProps) {
  const slot = nextHourSlot();
  const { formRef, values, bind, check, dirty } = useForm<MeetingFields>({ title: '', start: slot.start, end: slot.end, attendees: '' }, validate);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    setSaving(true);
    setServerError(null);
    try {
      await createMeeting({
        title: values.title.trim(),
        startTime: fromLocalInput(values.start)!,
        endTime: fromLocalInput(values.end)!,
        attendees: splitAttendees(values.attendees),
      });
      toast.success('Reunión de Teams creada');
      onCreated();
    } catch (err) {
      setServerError(errorMessage(err));
      setSaving(false);
    }
  };

  return (
    <Modal title="Nueva Reunión" onClose={onClose} dirty={dirty}>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
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
        <TextField label="Asistentes" placeholder="ana@empresa.com, luis@empresa.com" hint="Correos separados por comas" {...bind('attendees')} />
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
