/**
 * The history state left on /login so that signing in sends the person back: the guard leaves it, and so does
 * a screen that asks to sign in first (an invitation).
 */
export interface OriginState {
  from: string;
}

export function originState(path: string, search: string): OriginState {
  return { from: search ? `${path}?${search}` : path };
}

/** Only same-site paths are trusted, so a crafted state cannot redirect elsewhere. */
export function originPath(state: unknown): string {
  const from = typeof state === 'object' && state !== null ? (state as Partial<OriginState>).from : undefined;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : '/';
}
