import { useCallback, useEffect, useRef, useState } from 'react';
import { PRESENCE_VIEWING_MS, type PresenceBody } from '@asistente/contracts';
import { connectionState } from '../../lib/connection';
import { announcePresence, type ConversationPresence, type PresentMember } from './api';
import { nextLapse, othersPresent } from './presence';

/** Renewed well before the server lets «viewing» lapse, so a late request does not make the person vanish. */
const RENEW_MS = PRESENCE_VIEWING_MS / 3;
/** At most one «typing» a member's keys send this often; typing lasts a few seconds more on the server. */
export const TYPING_EVERY_MS = 2_000;

export interface Presence {
  /** The others viewing the open conversation, and those typing in it. */
  viewers: PresentMember[];
  typists: PresentMember[];
  /** The person typed a reply (throttled here). */
  typing: () => void;
  /** The reply left: they no longer type. */
  stopTyping: () => void;
  /** A `presence` event of the live stream, for any conversation. */
  heard: (presence: ConversationPresence) => void;
}

/**
 * Presence on the open conversation. While it is open and the page visible, says so to the server (renewed,
 * with «typing» while the person types a reply), and says goodbye when it closes or the page hides. Who else is
 * there comes from the live stream; the answers to these calls stand in only while the stream is not live (an
 * answer can be older than an event heard meanwhile).
 */
export function usePresence(conversationId: string | null, myId: string, live: boolean): Presence {
  const [state, setState] = useState<ConversationPresence | null>(null);
  const [, redraw] = useState(0);
  const current = useRef(conversationId);
  const liveNow = useRef(live);
  const keys = useRef({ typedAt: 0, typingSentAt: 0 });
  const send = useRef<(body: PresenceBody) => void>(() => undefined);

  useEffect(() => {
    liveNow.current = live;
  }, [live]);

  useEffect(() => {
    current.current = conversationId;
    setState(null);
    keys.current = { typedAt: 0, typingSentAt: 0 };
    if (!conversationId) return undefined;
    const id = conversationId;
    let open = true;
    let viewing = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    // One call at a time, in order: «typing» then «stopped» must not arrive the other way round.
    let queue: Promise<unknown> = Promise.resolve();
    const post = (body: PresenceBody, keepalive = false) => {
      queue = queue.then(() =>
        announcePresence(id, body, keepalive).then(
          (answer) => {
            if (open && !liveNow.current && current.current === id) setState(answer);
          },
          (err: unknown) => console.warn('No se pudo avisar de que ves la conversación', err),
        ),
      );
    };
    const renew = () => {
      if (connectionState() !== 'online') return;
      const typing = Date.now() - keys.current.typedAt < TYPING_EVERY_MS;
      if (typing) keys.current.typingSentAt = Date.now();
      post(typing ? { viewing: true, typing } : { viewing: true });
    };
    const start = () => {
      if (viewing) return;
      viewing = true;
      renew();
      timer = setInterval(renew, RENEW_MS);
    };
    const stop = (keepalive: boolean) => {
      if (!viewing) return;
      viewing = false;
      clearInterval(timer);
      post({ viewing: false }, keepalive);
    };
    const onVisibility = () => (document.visibilityState === 'visible' ? start() : stop(true));
    send.current = (body) => viewing && post(body);
    if (document.visibilityState === 'visible') start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      stop(false);
      open = false;
      send.current = () => undefined;
    };
  }, [conversationId]);

  // Each entry disappears when its `until` passes, unless renewed before.
  const now = Date.now();
  const lapse = nextLapse(state, myId, now);
  useEffect(() => {
    if (lapse === null) return undefined;
    const timer = setTimeout(() => redraw((n) => n + 1), Math.max(0, lapse - Date.now()) + 20);
    return () => clearTimeout(timer);
  }, [lapse]);

  const typing = useCallback(() => {
    const at = Date.now();
    keys.current.typedAt = at;
    if (at - keys.current.typingSentAt < TYPING_EVERY_MS) return;
    keys.current.typingSentAt = at;
    send.current({ viewing: true, typing: true });
  }, []);
  const stopTyping = useCallback(() => {
    if (keys.current.typedAt === 0) return;
    keys.current = { typedAt: 0, typingSentAt: 0 };
    send.current({ viewing: true });
  }, []);
  const heard = useCallback((presence: ConversationPresence) => {
    if (presence.conversationId === current.current) setState(presence);
  }, []);

  return {
    viewers: state ? othersPresent(state.viewing, myId, now) : [],
    typists: state ? othersPresent(state.typing, myId, now) : [],
    typing,
    stopTyping,
    heard,
  };
}
