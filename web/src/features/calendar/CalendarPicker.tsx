import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';

export interface PickerCalendar {
  id: string;
  name: string;
  color: string | null;
  primary?: boolean;
}

interface CalendarPickerProps {
  title: string;
  load: () => Promise<PickerCalendar[]>;
  current: string | null;
  onClose: () => void;
  onChoose: (id: string) => void;
}

/** A provider's calendars to choose from; 'Usar este calendario' stays disabled until one is chosen. */
export function CalendarPicker({ title, load, current, onClose, onChoose }: CalendarPickerProps) {
  const [calendars, setCalendars] = useState<PickerCalendar[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const name = useId();

  useEffect(() => {
    load().then(setCalendars, (err: unknown) => {
      console.error('No se pudieron listar los calendarios', err);
      setError(errorMessage(err));
    });
  }, [load]);

  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button disabled={!chosen} onClick={() => chosen && onChoose(chosen)}>
            Usar este calendario
          </Button>
        </>
      }
    >
      {error && <p className="form-error" role="alert">{error}</p>}
      {!calendars && !error && <p className="muted">Cargando calendarios...</p>}
      {calendars?.length === 0 && <p className="muted">No hay calendarios en esta cuenta</p>}
      <fieldset className="cal-picker">
        <legend className="sr-only">Calendarios</legend>
        {calendars?.map((c) => (
          <label key={c.id} className="cal-picker-option">
            <input type="radio" name={name} value={c.id} checked={chosen === c.id} onChange={() => setChosen(c.id)} />
            <span className="cal-swatch" style={{ background: c.color ?? '#4f46e5' }} aria-hidden="true" />
            <span className="cal-picker-name">{c.name}</span>
            {c.primary && <span className="badge badge-connected">Principal</span>}
            {current === c.id && <span className="muted">(en uso)</span>}
          </label>
        ))}
      </fieldset>
    </Modal>
  );
}
