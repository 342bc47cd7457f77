import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { fromLocalInput, toLocalInput } from '../../lib/local-datetime';
import { toast } from '../../lib/toasts';
import type { FieldErrors } from '../../lib/validation';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { useForm } from '../../ui/use-form';
import { createEvent, deleteEvent, updateEvent } from './api';
import { formatRange, type DisplayEvent } from './display-event';

type Fields = { title: string; start: string; end: string; location: string };

function validate(form: Fields): FieldErrors<'title' | 'start' | 'end'> {
  const start = fromLocalInput(form.start);
  const end = fromLocalInput(form.end);
  return {
    title: form.title.trim() ? undefined : 'El título es requerido',
    start: start ? undefined : 'La fecha de inicio es requerida',
    end: !end ? 'La fecha de fin es requerida' : start && end <= start ? 'La fecha de fin debe ser posterior a la de inicio' : undefined,
  };
}

interface EventFormModalProps {
  /** The event to edit; absent to create one. */
  item?: DisplayEvent | undefined;
  /** Where a new event goes ('primary' for the local source). */
  calendarId: string;
  /** Start of a new event (the day clicked, at 09:00). */
  defaultStart: Date;
  /** Teams events and all-day events are shown, not edited here. */
  readOnly: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/** Create, edit or delete an event of the grid; writes go to Google first, then the mirror. */
export function EventFormModal({ item, calendarId, defaultStart, readOnly, onClose, onSaved }: EventFormModalProps) {
  const start = item ? item.start : defaultStart;
  const end = item ? item.end : new Date(defaultStart.getTime() + 3_600_000);
  const { formRef, values, bind, check, dirty } = useForm<Fields>(
    { title: item?.event.title ?? '', start: toLocalInput(start), end: toLocalInput(end), location: item?.event.location ?? '' },
    validate,
  );
  const [description, setDescription] = useState(item?.event.description ?? '');
  const [busy, setBusy] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const descriptionId = useId();
  const targetCalendar = item?.event.calendarId ?? calendarId;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    const form = {
      title: values.title.trim(),
      startTime: fromLocalInput(values.start)!,
      endTime: fromLocalInput(values.end)!,
      description: description.trim(),
      location: values.location.trim(),
    };
    setBusy(true);
    try {
      if (item) await updateEvent(item.event.id, targetCalendar, form);
      else await createEvent(targetCalendar, form);
      toast.success(item ? 'Evento actualizado' : 'Evento creado');
      onSaved();
    } catch (err) {
      setServerError(errorMessage(err));
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!item) return;
    setBusy(true);
    try {
      await deleteEvent(item.event.id, targetCalendar);
      toast.success('Evento eliminado');
      onSaved();
    } catch (err) {
      setServerError(errorMessage(err));
      setConfirmingDelete(false);
      setBusy(false);
    }
  };

  if (item && readOnly) {
    return (
      <Modal title={item.event.title} onClose={onClose}>
        {serverError && <p className="form-error" role="alert">{serverError}</p>}
        <p className="cal-list-when">{formatRange(item)}</p>
        {item.event.description && <p className="cal-detail">{item.event.description}</p>}
        {item.event.location && <p className="muted">{item.event.location}</p>}
        {item.event.joinUrl && (
          <a href={item.event.joinUrl} target="_blank" rel="noopener noreferrer" className="btn btn-secondary btn-sm">
            Unirse a la reunión
          </a>
        )}
        <p className="muted">
          {item.event.source === 'msteams' ? 'Los eventos de Teams se editan en Microsoft Teams.' : 'Los eventos de todo el día se editan en Google Calendar.'}
        </p>
        <div className="modal-actions">
          {item.event.source === 'google' && (
            <Button variant="danger" onClick={() => void remove()} disabled={busy}>
              Eliminar
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            Cerrar
          </Button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title={item ? 'Editar Evento' : 'Nuevo Evento'} onClose={onClose} dirty={dirty || description !== (item?.event.description ?? '')}>
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
          {item && !confirmingDelete && (
            <Button variant="danger" onClick={() => setConfirmingDelete(true)} disabled={busy}>
              Eliminar
            </Button>
          )}
          {confirmingDelete && (
            <Button variant="danger" onClick={() => void remove()} disabled={busy}>
              Confirmar eliminación
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Guardando...' : item ? 'Guardar Cambios' : 'Crear Evento'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
