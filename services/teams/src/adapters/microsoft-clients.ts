import type { MicrosoftClients } from '../domain/microsoft-graph.js';
import type { MicrosoftSettings } from '../domain/microsoft-settings.js';
import { createGraphClient } from './graph-client.js';
import { MicrosoftGraphClient } from './microsoft-graph.js';
import { MicrosoftIdentityFlow } from './microsoft-identity.js';

/** The Microsoft ports over the identity platform and the Graph SDK; `onCall` is told how each Graph call ended (metrics). */
export function microsoftClients(settings: MicrosoftSettings, onCall?: (result: number | unknown) => void): MicrosoftClients {
  const { graphUrl } = settings;
  return {
    identity: new MicrosoftIdentityFlow(settings),
    graph: (tokens) => new MicrosoftGraphClient(createGraphClient({ graphUrl, tokens, ...(onCall ? { onCall } : {}) }), graphUrl),
  };
}
