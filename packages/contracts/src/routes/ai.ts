import { AiRunResult, AiSuggestionBody } from '../ai.js';
import { route } from './route.js';

/** The AI service's routes other services call. */
export const aiRoutes = {
  suggestion: route({ service: 'ai', method: 'POST', path: '/ai/suggestions', body: AiSuggestionBody, response: AiRunResult }),
};
