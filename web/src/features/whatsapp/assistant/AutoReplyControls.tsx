import { useId } from 'react';
import { TextField } from '../../../ui/TextField';
import type { AutoReplySettingsValue } from './format';
import './assistant.css';

interface AutoReplyControlsProps {
  value: AutoReplySettingsValue;
  onChange: (value: AutoReplySettingsValue) => void;
  disabled?: boolean;
}

/** The automatic-answer switch, its caps, meeting booking and the hand-off phrase; the parent form saves them. */
export function AutoReplyControls({ value, onChange, disabled = false }: AutoReplyControlsProps) {
  const autoId = useId();
  const bookId = useId();
  const set = (change: Partial<AutoReplySettingsValue>) => onChange({ ...value, ...change });
  return (
    <div>
      <div className="assistant-switch">
        <input
          id={autoId}
          type="checkbox"
          aria-describedby={`${autoId}-hint`}
          checked={value.autoReply}
          disabled={disabled}
          onChange={(e) => set({ autoReply: e.currentTarget.checked })}
        />
        <div>
          <label htmlFor={autoId}>
            <strong>Responder con el asistente IA</strong>
          </label>
          <p id={`${autoId}-hint`} className="field-hint">
            El asistente contesta en WhatsApp los mensajes que ninguna respuesta por palabra clave respondió. Cada respuesta usa tu API
            key de OpenAI: está desactivado hasta que lo actives.
          </p>
        </div>
      </div>
      <div className="form-row">
        <TextField
          label="Respuestas máximas por chat y día"
          type="number"
          min={1}
          max={200}
          step={1}
          inputMode="numeric"
          disabled={disabled}
          value={String(value.maxRepliesPerChatPerDay)}
          onInput={(e) => set({ maxRepliesPerChatPerDay: Number(e.currentTarget.value) })}
        />
        <TextField
          label="Presupuesto diario (USD)"
          type="number"
          min={0}
          max={1000}
          step={0.01}
          inputMode="decimal"
          disabled={disabled}
          value={String(value.dailyBudgetUsd)}
          onInput={(e) => set({ dailyBudgetUsd: Number(e.currentTarget.value) })}
          hint="Al llegar a este gasto, el asistente deja de responder hasta mañana."
        />
      </div>
      <TextField
        label="Frase para pasar la conversación a una persona"
        maxLength={500}
        disabled={disabled}
        value={value.handoffPhrase}
        onInput={(e) => set({ handoffPhrase: e.currentTarget.value })}
        hint="Se envía cuando el cliente pide hablar con una persona; el asistente queda en pausa en ese chat."
      />
      <div className="assistant-switch">
        <input
          id={bookId}
          type="checkbox"
          aria-describedby={`${bookId}-hint`}
          checked={value.canBookMeetings}
          disabled={disabled}
          onChange={(e) => set({ canBookMeetings: e.currentTarget.checked })}
        />
        <div>
          <label htmlFor={bookId}>
            <strong>Permitir agendar reuniones</strong>
          </label>
          <p id={`${bookId}-hint`} className="field-hint">
            Con Google Calendar conectado, el asistente ofrece huecos libres y crea la reunión con enlace de Google Meet cuando el cliente
            elige uno.
          </p>
        </div>
      </div>
    </div>
  );
}
