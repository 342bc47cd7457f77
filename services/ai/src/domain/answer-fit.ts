import { CONVERSATION_TEXT_MAX } from '@asistente/contracts';

/**
 * The model's answer as one message the channels take (at most CONVERSATION_TEXT_MAX characters): a longer one is
 * cut at the last word that fits, with an ellipsis, rather than never reaching the customer at all.
 */
export function fitAnswer(text: string): string {
  if (text.length <= CONVERSATION_TEXT_MAX) return text;
  const room = text.slice(0, CONVERSATION_TEXT_MAX - 1);
  const lastSpace = room.search(/\s\S*$/);
  return `${(lastSpace > CONVERSATION_TEXT_MAX / 2 ? room.slice(0, lastSpace) : room).trimEnd()}…`;
}
