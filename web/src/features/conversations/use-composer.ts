import { useCallback, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/errors';
import { addNote, ANSWERED_MEANWHILE, sendReply, type ConversationEntry, type SendConflict } from './api';
import { newIdempotencyKey } from './idempotency-key';

export type ComposerMode = 'reply' | 'note';

/** A send refused because a colleague answered after the person last read the thread. */
export interface Conflict {
  message: string;
  answer: ConversationEntry;
}

export interface Composer {
  mode: ComposerMode;
  setMode: (mode: ComposerMode) => void;
  text: string;
  setText: (text: string) => void;
  sending: boolean;
  error: string | null;
  conflict: Conflict | null;
  /** `force`: «Enviar de todos modos», after a conflict. */
  submit: (force?: boolean) => Promise<void>;
  /** A reply to edit before sending (an assistant's suggestion): it replaces what was written. */
  fill: (text: string) => void;
  dismissConflict: () => void;
}

const isConflict = (err: unknown): err is ApiError & { body: SendConflict } =>
  err instanceof ApiError && err.status === 409 && err.code === ANSWERED_MEANWHILE && typeof err.body === 'object' && err.body !== null && 'answer' in err.body;

/** A refusal the server gave knowingly: nothing was sent, so the next press is a new attempt. */
const refused = (err: unknown) => err instanceof ApiError && err.status >= 400 && err.status < 500;

/**
 * The composer's state: a reply to the customer or a private note. A reply's Idempotency-Key lives as long as
 * its attempt: pressing «Enviar» again with the same text after an answer that never came (network, 5xx)
 * reuses it, so the customer gets the message once; a refusal or a success ends the attempt.
 */
export function useComposer(conversationId: string, onEntry: (entry: ConversationEntry) => void): Composer {
  const [mode, setModeState] = useState<ComposerMode>('reply');
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const attempt = useRef<{ text: string; key: string } | null>(null);

  const reply = async (body: string, force: boolean) => {
    if (attempt.current?.text !== body) attempt.current = { text: body, key: newIdempotencyKey() };
    try {
      onEntry(await sendReply(conversationId, body, attempt.current.key, force));
      attempt.current = null;
      setConflict(null);
      setText('');
    } catch (err) {
      if (refused(err)) attempt.current = null;
      if (!isConflict(err)) throw err;
      // The colleague's answer joins the thread, so the person reads what the customer already got.
      onEntry(err.body.answer);
      setConflict({ message: err.message, answer: err.body.answer });
    }
  };

  const submit = async (force = false) => {
    const body = text.trim();
    if (!body) {
      setError('Escribe un mensaje');
      return;
    }
    setSending(true);
    setError(null);
    try {
      if (mode === 'note') {
        onEntry(await addNote(conversationId, body));
        setText('');
      } else {
        await reply(body, force);
      }
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSending(false);
    }
  };

  // Stable, so the composer can take a suggestion in an effect without re-running it on every render.
  const fill = useCallback((next: string) => {
    setModeState('reply');
    setText(next);
    setError(null);
    setConflict(null);
  }, []);

  return {
    mode,
    setMode: (next) => {
      setModeState(next);
      setError(null);
      setConflict(null);
    },
    text,
    setText,
    sending,
    error,
    conflict,
    submit,
    fill,
    dismissConflict: () => setConflict(null),
  };
}
