/** Another workspace's conversation, or one that never was: the same 404, whichever part of the inbox is asked. */
export const CONVERSATION_NOT_FOUND = 'Conversación no encontrada';
