import { useEffect } from 'react';

/** The app's name, as index.html titles every page. */
export const APP_TITLE = 'Mi Asistente.IA';

/**
 * While the calling screen is shown, the browser tab reads `«title» · Mi Asistente.IA` (a count in front, e.g.
 * «(3) Conversaciones», shows in the tab even when the person is in another one); leaving gives the app's name back.
 */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${APP_TITLE}`;
  }, [title]);
  useEffect(
    () => () => {
      document.title = APP_TITLE;
    },
    [],
  );
}
