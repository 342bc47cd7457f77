import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { fromLocalInput, nextHourSlot } from '../../lib/local-datetime';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { useForm } from '../../ui/use-form';
import { createEvent } from './api';
import { validateTimed } from './event-validation';

interface EventModalProps {
  calendarId: string;
  onClose: () => void;
  onCreated: () => void;
}

/** 'Nuevo Evento' in the selected calendar. */
export function EventModal({ calendarId, onClose, onCreated }: EventModalProps) {
  const slot = nextHourSlot();
  const { formRef, values, bind, check, dirty } = useForm(
    { title: '', start: slot.start, end: slot.end, location: '' },
    validateTimed,
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
      await createEvent(calendarId, {
        title: values.title.trim(),
        startTime: fromLocalInput(values.start)!,
        endTime: fromLocalInput(values.end)!,
        description: description.trim(),
        location: values.location.trim(),
      });
      toast.success('Evento creado');
      onCreated();
    } catch (err) {
      setServerError(errorMessage(err));
      setSaving(false);
    }
  };

  return (
    <Modal title="Nuevo Evento" onClose={onClose} dirty={dirty || description !== ''}>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        {serverError && <p className="form-error" role="alert">{serverError}</p>}
        <TextField label="Título" autoFocus {...bind('title')} />
        <div className="form-row">
          <TextField label="Inicio" type="datetime-local" {...bind('start')} />
          <TextField label="Fin" type="datetime-local" {...bind('end')} />
        </div>
        <div className="field">
          <label htmlFor={descriptionId}>Descripción</label>
          <textarea id={descriptionId} rows={3} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </div>
        <TextField label="Ubicación" {...bind('location')} />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Creando...' : 'Crear Evento'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
