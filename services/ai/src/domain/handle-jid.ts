/**
 * The WhatsApp chat a team-inbox handle names (`+34600111222`, `group:<id>`, `lid:<id>`), in the JID form the
 * assistant's customer reach is resolved from. The WhatsApp service keeps the same mapping for its sends; the
 * inbox itself knows no JIDs. Undefined for anything that is not such a handle.
 */
export function jidOfHandle(handle: string): string | undefined {
  const phone = /^\+(\d{6,20})$/.exec(handle);
  if (phone) return `${phone[1]}@s.whatsapp.net`;
  const group = /^group:([\w.-]+)$/.exec(handle);
  if (group) return `${group[1]}@g.us`;
  const lid = /^lid:([\w.-]+)$/.exec(handle);
  return lid ? `${lid[1]}@lid` : undefined;
}
