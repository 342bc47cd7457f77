import { useCallback, useState } from 'react';
import { noticesState, storeChoice, turnNoticesOn, type NoticesState } from './browser-notices';

export interface BrowserNotices {
  state: NoticesState;
  asking: boolean;
  turnOn: () => Promise<void>;
  turnOff: () => void;
}

/** «Activar avisos del navegador» and back: the choice this browser remembers. */
export function useBrowserNotices(): BrowserNotices {
  const [state, setState] = useState<NoticesState>(noticesState);
  const [asking, setAsking] = useState(false);

  const turnOn = useCallback(async () => {
    setAsking(true);
    try {
      setState(await turnNoticesOn());
    } finally {
      setAsking(false);
    }
  }, []);
  const turnOff = useCallback(() => {
    storeChoice(false);
    setState(noticesState());
  }, []);

  return { state, asking, turnOn, turnOff };
}
