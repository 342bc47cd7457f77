import { useConnectionStatus } from '../../lib/use-connection-status';
import { getStatus } from './api';

/** The Google connection status, followed while a consent completes in another tab. */
export const useGoogleStatus = () => useConnectionStatus(getStatus, 'Google Calendar');
