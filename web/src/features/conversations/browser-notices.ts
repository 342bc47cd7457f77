/**
 * The browser's own notifications for the inbox: off until the person turns them on, which asks the browser's
 * permission once (the browser remembers the answer) and remembers the choice here, in this browser only.
 */
const STORAGE_KEY = 'inboxNotices';

export type NoticesState = 'unsupported' | 'blocked' | 'off' | 'on';

/** Plain http (other than localhost) has no notifications, nor do some phones' browsers. */
export const noticesSupported = (): boolean => typeof window !== 'undefined' && 'Notification' in window && window.isSecureContext;

export function storedChoice(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

export function storeChoice(on: boolean): void {
  try {
    localStorage.setItem(STORAGE_KEY, on ? 'on' : 'off');
  } catch (err) {
    console.error('No se pudo guardar la preferencia de avisos en el navegador', err);
  }
}

export function noticesState(): NoticesState {
  if (!noticesSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  return Notification.permission === 'granted' && storedChoice() ? 'on' : 'off';
}

/** Asks the browser (only when it has not been answered yet) and keeps the choice when granted. */
export async function turnNoticesOn(): Promise<NoticesState> {
  if (!noticesSupported()) return 'unsupported';
  const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission === 'granted') storeChoice(true);
  return noticesState();
}

/** One notification; a click brings the tab forward and does `onClick`. `tag` keeps one per subject. */
export function showNotice(title: string, body: string, tag: string, onClick: () => void): void {
  try {
    const notice = new Notification(title, { body, tag });
    notice.onclick = () => {
      window.focus();
      onClick();
      notice.close();
    };
  } catch (err) {
    // Some phones' browsers only notify through a service worker: the screen itself still shows everything.
    console.warn('El navegador no mostró el aviso', err);
  }
}
