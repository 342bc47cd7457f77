import { useEffect, useState } from 'react';
import { getMembers } from './api';

/** What a member id stands for on screen: their name, or «Antiguo miembro» for one no longer in the workspace. */
export type NameOf = (memberId: string) => string;

export const FORMER_MEMBER = 'Antiguo miembro';

/**
 * Names for the members who wrote a contact, or null: while the members load, if they cannot, and in a
 * workspace of one, where every contact is its only member's and naming them says nothing.
 */
export function useMemberNames(): NameOf | null {
  const [nameOf, setNameOf] = useState<NameOf | null>(null);

  useEffect(() => {
    let current = true;
    getMembers().then(
      (members) => {
        if (!current || members.length < 2) return;
        const names = new Map(members.map((m) => [m.userId, `${m.firstName} ${m.lastName}`.trim() || m.email]));
        setNameOf(() => (memberId: string) => names.get(memberId) ?? FORMER_MEMBER);
      },
      // Only the attribution line is missing: the contact itself is all there.
      (err: unknown) => console.error('No se pudieron cargar los miembros del espacio de trabajo', err),
    );
    return () => {
      current = false;
    };
  }, []);

  return nameOf;
}
