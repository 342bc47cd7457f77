import type { ConversationPresence } from '@asistente/contracts';

type PresentMember = ConversationPresence['viewing'][number];

/**
 * The others on a conversation whose `until` (the server's) is still ahead of this browser's clock: never the
 * person themselves (another tab of theirs included), and nobody whose last word lapsed unrenewed.
 */
export function othersPresent(list: readonly PresentMember[], myId: string, now: number): PresentMember[] {
  return list.filter((p) => p.userId !== myId && Date.parse(p.until) > now);
}

/** When the next of the others' entries lapses (so the screen redraws then); null when none will. */
export function nextLapse(presence: ConversationPresence | null, myId: string, now: number): number | null {
  if (!presence) return null;
  const times = [...othersPresent(presence.viewing, myId, now), ...othersPresent(presence.typing, myId, now)].map((p) => Date.parse(p.until));
  return times.length > 0 ? Math.min(...times) : null;
}

const names = new Intl.ListFormat('es', { style: 'long', type: 'conjunction' });
const UNKNOWN = 'Alguien del equipo';
const nameOf = (p: PresentMember) => p.name.trim() || UNKNOWN;
const firstNameOf = (p: PresentMember) => p.name.trim().split(/\s+/)[0] || UNKNOWN;

/** «También lo está viendo: Luis Pérez», «También lo están viendo: Luis Pérez y Marta Gil»; null for nobody. */
export function viewingText(viewers: readonly PresentMember[]): string | null {
  if (viewers.length === 0) return null;
  return `También lo ${viewers.length === 1 ? 'está' : 'están'} viendo: ${names.format(viewers.map(nameOf))}`;
}

/**
 * «Ana está escribiendo…», «Ana y Luis están escribiendo…»: first names, as a chat says it; full names when
 * two of them share a first name. Null for nobody.
 */
export function typingText(typists: readonly PresentMember[]): string | null {
  if (typists.length === 0) return null;
  const first = typists.map(firstNameOf);
  const shown = new Set(first).size === first.length ? first : typists.map(nameOf);
  return `${names.format(shown)} ${typists.length === 1 ? 'está' : 'están'} escribiendo…`;
}
