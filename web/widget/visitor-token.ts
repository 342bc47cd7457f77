/**
 * The visitor's signed token, kept in the page's storage under the widget's key so a reload (or another page of
 * the same site) goes on with the same conversation. A browser that refuses storage keeps it for this page only.
 */
export function visitorTokenStore(key: string) {
  const name = `asistente-widget:${key}`;
  let inMemory: string | null = null;
  return {
    read(): string | null {
      try {
        return localStorage.getItem(name) ?? inMemory;
      } catch {
        return inMemory;
      }
    },
    write(token: string | null): void {
      inMemory = token;
      try {
        if (token) localStorage.setItem(name, token);
        else localStorage.removeItem(name);
      } catch {
        // Storage refused (a private window, a sandboxed frame): the in-memory copy serves this page.
      }
    },
  };
}
