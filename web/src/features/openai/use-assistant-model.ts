import type { AiModel, AssistantConfig } from '@asistente/contracts';
import { useEffect, useState } from 'react';
import { getJson } from '../../lib/http';

/** The model the assistant answers with (null while loading or when it cannot be read: the guide then lists them all). */
export function useAssistantModel(): AiModel | null {
  const [model, setModel] = useState<AiModel | null>(null);
  useEffect(() => {
    let current = true;
    getJson<{ data: AssistantConfig }>('ai/assistant').then(
      (answer) => current && setModel(answer.data.model),
      (err: unknown) => console.warn('No se pudo leer el modelo del asistente', err),
    );
    return () => {
      current = false;
    };
  }, []);
  return model;
}
