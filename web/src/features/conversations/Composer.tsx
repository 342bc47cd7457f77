import { useEffect, useRef, type FormEvent } from 'react';
import { CONVERSATION_TEXT_MAX } from '@asistente/contracts';
import { Button } from '../../ui/Button';
import { FormError } from '../../ui/FormError';
import type { ConversationEntry } from './api';
import { authorLabel } from './format';
import { useComposer, type ComposerMode } from './use-composer';
import { useSuggestion } from './use-suggestion';

const MODES: { value: ComposerMode; label: string }[] = [
  { value: 'reply', label: 'Responder' },
  { value: 'note', label: 'Nota privada' },
];

interface ComposerProps {
  conversationId: string;
  onEntry: (entry: ConversationEntry) => void;
  /** The person is typing a reply to the customer (what colleagues see as «… está escribiendo…»). */
  onTyping: () => void;
  /** A suggestion the person chose to use («Usar esta respuesta»); a new object each time, even for the same text. */
  draft: ComposerDraft | null;
}

export interface ComposerDraft {
  text: string;
}

/**
 * The thread's foot: a reply to the customer, or a note only the team reads, with the stale-send question, and
 * «Sugerir respuesta», whose draft joins the thread until the person uses it here.
 */
export function Composer({ conversationId, onEntry, onTyping, draft }: ComposerProps) {
  const composer = useComposer(conversationId, onEntry);
  const suggestion = useSuggestion(conversationId, onEntry);
  const note = composer.mode === 'note';
  const textarea = useRef<HTMLTextAreaElement>(null);
  const { fill } = composer;

  // The chosen suggestion becomes the reply, with the cursor in it so the person edits it before sending.
  useEffect(() => {
    if (!draft) return;
    fill(draft.text);
    textarea.current?.focus();
  }, [draft, fill]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void composer.submit();
  };

  return (
    <form className={note ? 'inbox-composer is-note' : 'inbox-composer'} onSubmit={onSubmit} noValidate aria-label="Escribir en la conversación">
      <div className="inbox-segmented" role="group" aria-label="Tipo de mensaje">
        {MODES.map((m) => (
          <button
            key={m.value}
            type="button"
            aria-pressed={composer.mode === m.value}
            className={composer.mode === m.value ? 'is-active' : ''}
            onClick={() => composer.setMode(m.value)}
          >
            {m.label}
          </button>
        ))}
      </div>
      {composer.conflict && (
        <div className="inbox-conflict" role="alert">
          <p>{composer.conflict.message}</p>
          <blockquote>
            <span className="inbox-conflict-author">{authorLabel(composer.conflict.answer) ?? 'Otra persona'}:</span> {composer.conflict.answer.text}
          </blockquote>
          <div className="inbox-conflict-actions">
            <Button small disabled={composer.sending} onClick={() => void composer.submit(true)}>
              Enviar de todos modos
            </Button>
            <Button variant="secondary" small onClick={composer.dismissConflict}>
              No enviar
            </Button>
          </div>
        </div>
      )}
      <FormError message={composer.error} />
      <FormError message={suggestion.error} />
      <label htmlFor={`inbox-text-${conversationId}`} className="sr-only">
        {note ? 'Nota privada para el equipo' : 'Respuesta al cliente'}
      </label>
      <textarea
        ref={textarea}
        id={`inbox-text-${conversationId}`}
        rows={3}
        maxLength={CONVERSATION_TEXT_MAX}
        placeholder={note ? 'Nota para el equipo. Escribe @Nombre para avisar a alguien' : 'Escribe tu respuesta al cliente'}
        aria-describedby={note ? `inbox-note-hint-${conversationId}` : undefined}
        value={composer.text}
        onInput={(e) => {
          const value = e.currentTarget.value;
          composer.setText(value);
          if (!note && value.trim()) onTyping();
        }}
        onKeyDown={(e) => {
          // Enter sends, Shift+Enter breaks the line (as in the WhatsApp chat).
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
      />
      <div className="inbox-composer-foot">
        {note && (
          <p id={`inbox-note-hint-${conversationId}`} className="muted inbox-note-hint">
            Solo la ve tu equipo: nunca se envía al cliente.
          </p>
        )}
        <Button variant="secondary" className="inbox-suggest" disabled={suggestion.asking} aria-busy={suggestion.asking} onClick={() => void suggestion.ask()}>
          {suggestion.asking ? 'Preparando sugerencia...' : 'Sugerir respuesta'}
        </Button>
        <Button type="submit" disabled={composer.sending || !composer.text.trim()}>
          {composer.sending ? 'Enviando...' : note ? 'Añadir nota' : 'Enviar'}
        </Button>
      </div>
    </form>
  );
}
