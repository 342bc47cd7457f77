import type { MailFolder } from '@asistente/contracts';
import type { FolderEntry } from './mailbox.js';

const SPECIAL_USE: Record<string, MailFolder> = {
  '\\Inbox': 'inbox',
  '\\Sent': 'sent',
  '\\Drafts': 'drafts',
  '\\Trash': 'trash',
};

/** Names servers without SPECIAL-USE give these folders (last path segment, lower case). */
const NAME_FALLBACKS: Record<Exclude<MailFolder, 'inbox'>, string[]> = {
  sent: ['sent', 'sent items', 'sent mail', 'sent messages', 'enviados', 'elementos enviados', 'correo enviado'],
  drafts: ['drafts', 'draft', 'borradores'],
  trash: ['trash', 'deleted items', 'deleted messages', 'bin', 'papelera', 'elementos eliminados'],
};

/** Where inbox, sent, drafts and trash live on this server: special-use flags first, usual names second. */
export function mapFolders(list: FolderEntry[]): Map<MailFolder, string> {
  const found = new Map<MailFolder, string>();
  for (const entry of list) {
    const role = entry.specialUse ? SPECIAL_USE[entry.specialUse] : undefined;
    if (role && !found.has(role)) found.set(role, entry.path);
  }
  if (!found.has('inbox')) {
    const inbox = list.find((e) => e.path.toUpperCase() === 'INBOX');
    found.set('inbox', inbox?.path ?? 'INBOX');
  }
  for (const [role, names] of Object.entries(NAME_FALLBACKS) as [Exclude<MailFolder, 'inbox'>, string[]][]) {
    if (found.has(role)) continue;
    const match = list.find((e) => !e.flags.has('\\Noselect') && names.includes(e.name.toLowerCase()));
    if (match) found.set(role, match.path);
  }
  return found;
}
