import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { fromLocalInput, toLocalInput } from '../../lib/local-datetime';
import { dayKey } from './month';
import { toast } from '../../lib/toasts';
import { timedEventErrors, type FieldErrors } from '../../lib/validation';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { useForm } from '../../ui/use-form';
import { createEvent, deleteEvent, updateEvent } from './api';
import type { DisplayEvent } from './display-event';
import type { EventTarget } from './event-targets';

/** Timed events use start/end (datetime-local); all-day ones firstDay/lastDay (dates, the last one inclusive). */
type Fields = { title: string; start: string; end: string; firstDay: string; lastDay: string; location: string };
type Checked = 'title' | 'start' | 'end' | 'firstDay' | 'lastDay';


function validateAllDay(form: Fields): FieldErrors<Checked> {
  return {
    title: form.title.trim() ? undefined : 'El título es requerido',
    firstDay: form.firstDay ? undefined : 'La fecha de inicio es requerida',
    lastDay: !form.lastDay ? 'La fecha de fin es requerida' : form.firstDay && form.lastDay < form.firstDay ? 'La fecha de fin no puede ser anterior a la de inicio' : undefined,
  };
}

interface EventFormModalProps {
  /** The event to edit; absent to create one. */
  item?: DisplayEvent | undefined;
  /** Where a new event goes unless another of `targets` is chosen ('primary' is Google's primary). */
  calendarId: string;
  /** The calendars a new event may go to (Google, CalDAV, Outlook), offered in the form's Calendario list. */
  targets: EventTarget[];
  /** Start of a new event (the day clicked, at 09:00). */
  defaultStart: Date;
  onClose: () => void;
  onSaved: () => void;
}

const PROVIDERS = [
  { provider: 'Google', label: 'Google Calendar' },
  { provider: 'CalDAV', label: 'CalDAV' },
  { provider: 'Outlook', label: 'Outlook (Microsoft)' },
] as const;

/**
 * Create, edit or delete an event of the grid, whatever its provider (Google, CalDAV, Outlook): writes go to
 * /events with the event's calendarId, and the server sends them on to that calendar.
 */
export function EventFormModal({ item, calendarId, targets, defaultStart, onClose, onSaved }: EventFormModalProps) {
  const [allDay, setAllDay] = useState(item?.allDay ?? false);
  // An all-day event opened as timed starts at the default hour of its first day.
  const start = item && !item.allDay ? item.start : item ? new Date(item.start.getFullYear(), item.start.getMonth(), item.start.getDate(), defaultStart.getHours()) : defaultStart;
  const end = item && !item.allDay ? item.end : new Date(start.getTime() + 3_600_000);
  const { formRef, values, bind, check, dirty } = useForm<Fields>(
    {
      title: item?.event.title ?? '',
      start: toLocalInput(start),
      end: toLocalInput(end),
      firstDay: item?.firstDay ?? dayKey(start),
      lastDay: item?.lastDay ?? dayKey(start),
      location: item?.event.location ?? '',
    },
    allDay ? validateAllDay : timedEventErrors,
  );
  const [description, setDescription] = useState(item?.event.description ?? '');
  const [busy, setBusy] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const descriptionId = useId();
  const calendarFieldId = useId();
  const [chosenCalendar, setChosenCalendar] = useState(calendarId);
  const targetCalendar = item?.event.calendarId ?? chosenCalendar;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    const form = {
      title: values.title.trim(),
      startTime: allDay ? values.firstDay : fromLocalInput(values.start)!,
      endTime: allDay ? values.lastDay : fromLocalInput(values.end)!,
      description: description.trim(),
      location: values.location.trim(),
      allDay,
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

  return (
    <Modal
      title={item ? 'Editar Evento' : 'Nuevo Evento'}
      onClose={onClose}
      dirty={dirty || description !== (item?.event.description ?? '') || allDay !== (item?.allDay ?? false) || chosenCalendar !== calendarId}
    >
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        {serverError && <p className="form-error" role="alert">{serverError}</p>}
        <TextField label="Título" autoFocus {...bind('title')} />
        {!item && targets.length > 1 && (
          <div className="field">
            <label htmlFor={calendarFieldId}>Calendario</label>
            <select id={calendarFieldId} value={chosenCalendar} onChange={(e) => setChosenCalendar(e.currentTarget.value)}>
              {PROVIDERS.filter((p) => targets.some((t) => t.provider === p.provider)).map((p) => (
                <optgroup key={p.provider} label={p.label}>
                  {targets
                    .filter((t) => t.provider === p.provider)
                    .map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name}
                      </option>
                    ))}
                </optgroup>
              ))}
            </select>
          </div>
        )}
        <label className="cal-all-day">
          <input type="checkbox" checked={allDay} onChange={(e) => setAllDay(e.currentTarget.checked)} /> Todo el día
        </label>
        {allDay ? (
          <div className="form-row">
            <TextField label="Inicio" type="date" {...bind('firstDay')} />
            <TextField label="Fin" type="date" hint="Último día del evento" {...bind('lastDay')} />
          </div>
        ) : (
          <div className="form-row">
            <TextField label="Inicio" type="datetime-local" {...bind('start')} />
            <TextField label="Fin" type="datetime-local" {...bind('end')} />
          </div>
        )}
        <div className="field">
          <label htmlFor={descriptionId}>Descripción</label>
          <textarea id={descriptionId} rows={3} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </div>
        <TextField label="Ubicación" {...bind('location')} />
        {/* The id of a listed occurrence names that occurrence: the server changes or removes it alone. */}
        {item?.event.joinUrl && (
          <a href={item.event.joinUrl} target="_blank" rel="noopener noreferrer" className="btn btn-secondary btn-sm">
            Unirse a la reunión
          </a>
        )}
        {item?.event.isRecurring && <p className="muted">Se repite: guardar o eliminar afecta solo a esta fecha; el resto de la serie no cambia.</p>}
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
