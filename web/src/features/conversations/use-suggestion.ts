import { useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { suggestReply, type ConversationEntry } from './api';

export interface Suggestion {
  asking: boolean;
  /** Why the last request failed (no OpenAI key, the assistant too slow…), as the server says it. */
  error: string | null;
  ask: () => Promise<void>;
}

/** «Sugerir respuesta»: asks the assistant for a draft, which joins the thread as a private entry. */
export function useSuggestion(conversationId: string, onEntry: (entry: ConversationEntry) => void): Suggestion {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const ask = async () => {
    setAsking(true);
    setError(null);
    try {
      onEntry(await suggestReply(conversationId));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setAsking(false);
    }
  };

  return { asking, error, ask };
}
