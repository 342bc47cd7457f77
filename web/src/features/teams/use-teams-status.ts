import { useConnectionStatus } from '../../lib/use-connection-status';
import { getStatus } from './api';

/** The Microsoft connection status (spec: checked on load), followed while a consent completes in another tab. */
export const useTeamsStatus = () => useConnectionStatus(getStatus, 'Microsoft Teams');
