import type { AiChatState } from '@asistente/contracts';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/errors';
import { toast } from '../../../lib/toasts';
import { Button } from '../../../ui/Button';
import { getAssistantConfig, getChatState, setChatPaused } from './api';
import { chatStateLabel } from './format';
import './assistant.css';

/** For the chat drawer: whether the assistant answers this chat, why not, and the "pausar asistente" switch. */
export function ChatAssistantControl({ jid }: { jid: string }) {
  const [state, setState] = useState<AiChatState | null>(null);
  // Off for the whole account: "active in this chat" would mislead.
  const [autoReply, setAutoReply] = useState(true);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    setState(null);
    setFailed(false);
    Promise.all([getChatState(jid), getAssistantConfig()]).then(
      ([loaded, config]) => {
        if (!current) return;
        setState(loaded);
        setAutoReply(config.autoReply === true);
      },
      (err: unknown) => {
        console.error('No se pudo cargar el estado del asistente', err);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [jid]);

  // A pause the owner can lift: theirs, a hand-off, a takeover (the phone's or a colleague's). The caps end with the day.
  const liftable = state?.paused === true && (state.reason === 'manual' || state.reason === 'handoff' || state.reason === 'owner_takeover' || state.reason === 'team');

  const toggle = async () => {
    if (!state) return;
    setBusy(true);
    try {
      setState(await setChatPaused(jid, !liftable && !state.paused));
    } catch (err) {
      console.error('No se pudo cambiar el estado del asistente', err);
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  if (failed) return <p className="field-error">No se pudo cargar el estado del asistente</p>;
  if (!state) return <p className="muted">Cargando estado del asistente...</p>;
  return (
    <div className="assistant-chat-control">
      <span>{autoReply ? chatStateLabel(state) : 'Respuestas automáticas con IA desactivadas (Prompts IA)'}</span>
      {(liftable || !state.paused) && (
        <Button variant="secondary" small disabled={busy} onClick={toggle}>
          {liftable ? 'Reanudar asistente' : 'Pausar asistente'}
        </Button>
      )}
    </div>
  );
}
