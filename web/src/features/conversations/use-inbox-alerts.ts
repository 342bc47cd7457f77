import { useCallback, useEffect, useRef } from 'react';
import type { UpdateConversationBody } from '@asistente/contracts';
import { listConversations, type InboxConversation, type Mention } from './api';
import { showNotice } from './browser-notices';
import { displayName } from './format';

/**
 * The conversations assigned to me that are compared: the API's largest page, newest activity first (with more
 * than this assigned, one coming back into the page after a new message would count as new).
 */
const WATCHED = 100;

export interface InboxAlerts {
  /** After a change the stream announced: notices a conversation newly assigned to me. */
  check: () => Promise<void>;
  /**
   * A change of mine, sent through here: assigning a conversation to myself is no news to me, whichever of its
   * answer and the stream's announcement arrives first.
   */
  mine: (id: string, body: UpdateConversationBody, send: () => Promise<InboxConversation>) => Promise<InboxConversation>;
}

interface AlertsOptions {
  enabled: boolean;
  myId: string;
  mentions: Mention[] | null;
  open: (conversationId: string) => void;
}

/**
 * The browser notices, by comparing before and after a refresh: «Nueva conversación asignada» when one joins
 * those assigned to me, «Te han mencionado» when a mention I have not seen appears. The first look only takes
 * stock; what I did myself is never news.
 */
export function useInboxAlerts({ enabled, myId, mentions, open }: AlertsOptions): InboxAlerts {
  const latest = useRef({ enabled, open });
  useEffect(() => {
    latest.current = { enabled, open };
  });
  const knownMentions = useRef<Set<string> | null>(null);
  const assigned = useRef<Set<string> | null>(null);
  // Conversations I am assigning to myself: left out of the comparison until seen assigned (or the change failed).
  const selfAssigned = useRef(new Set<string>());
  const issued = useRef(0);

  useEffect(() => {
    if (!mentions) return;
    const known = knownMentions.current;
    knownMentions.current = new Set(mentions.map((m) => m.id));
    if (!known || !latest.current.enabled) return;
    for (const m of mentions.filter((m) => !m.seen && !known.has(m.id))) {
      showNotice('Te han mencionado', `${m.byName ?? 'Alguien del equipo'}: ${m.text}`, `mention-${m.id}`, () => latest.current.open(m.conversationId));
    }
  }, [mentions]);

  const check = useCallback(async () => {
    if (!latest.current.enabled) return;
    const seq = ++issued.current;
    let rows: InboxConversation[];
    try {
      rows = (await listConversations({ assignee: 'me', status: 'any', q: '' }, 1, WATCHED)).data;
    } catch (err) {
      console.error('No se pudieron comprobar las conversaciones asignadas', err);
      return;
    }
    // A newer check is under way: this older answer would only compare stale lists.
    if (seq !== issued.current) return;
    const before = assigned.current;
    assigned.current = new Set(rows.map((c) => c.id));
    // Seen assigned to me: my own assignments stop being left out from here on.
    const fresh = rows.filter((c) => !selfAssigned.current.delete(c.id) && before && !before.has(c.id));
    if (!latest.current.enabled) return;
    for (const c of fresh) {
      showNotice('Nueva conversación asignada', `${displayName(c)}${c.lastMessagePreview ? `: ${c.lastMessagePreview}` : ''}`, `assigned-${c.id}`, () =>
        latest.current.open(c.id),
      );
    }
  }, []);

  // Turned on: take stock now, so the first change after it is compared with something. Off: forget.
  useEffect(() => {
    if (enabled) void check();
    else {
      assigned.current = null;
      selfAssigned.current.clear();
    }
  }, [enabled, check]);

  const mine = useCallback(
    async (id: string, body: UpdateConversationBody, send: () => Promise<InboxConversation>) => {
      // Before sending: the stream may announce the change, and a check compare it, before the answer arrives.
      const toMe = body.assigneeId === myId && latest.current.enabled && !assigned.current?.has(id);
      if (toMe) selfAssigned.current.add(id);
      try {
        return await send();
      } catch (err) {
        if (toMe) selfAssigned.current.delete(id);
        throw err;
      }
    },
    [myId],
  );

  return { check, mine };
}
