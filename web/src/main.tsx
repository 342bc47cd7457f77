import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadScreen } from './app/routes';
import { restoreSession } from './lib/auth';
import { getToken } from './lib/session-state';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('Falta el elemento #root');
if (getToken()) preloadScreen(location.pathname);
void restoreSession();
createRoot(root).render(<App />);
