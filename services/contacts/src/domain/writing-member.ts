import { currentMemberId } from '@asistente/kit';

/**
 * The member whose request writes contacts, for their `created_by` / `updated_by`: null for what no member
 * asked (the workspace's own calls, such as WhatsApp's contact sync, and work outside any request).
 */
export function writingMember(): string | null {
  return currentMemberId() ?? null;
}
