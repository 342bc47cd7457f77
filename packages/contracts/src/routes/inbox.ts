import { IdParams } from '../common.js';
import {
  AssistantAnswerBody,
  ConversationEntry,
  ConversationExcerpt,
  ConversationExcerptQuery,
  ConversationLookupQuery,
  InboxConversation,
  UpdateConversationBody,
} from '../conversations.js';
import { route } from './route.js';

/** The inbox service's routes other services call. */
export const inboxRoutes = {
  lookup: route({ service: 'inbox', method: 'GET', path: '/conversations/lookup', query: ConversationLookupQuery, response: InboxConversation }),
  excerpt: route({ service: 'inbox', method: 'GET', path: '/conversations/:id/excerpt', params: IdParams, query: ConversationExcerptQuery, response: ConversationExcerpt }),
  update: route({ service: 'inbox', method: 'PATCH', path: '/conversations/:id', params: IdParams, body: UpdateConversationBody, response: InboxConversation }),
  assistantAnswer: route({ service: 'inbox', method: 'POST', path: '/conversations/:id/assistant-answers', params: IdParams, body: AssistantAnswerBody, response: ConversationEntry }),
};
