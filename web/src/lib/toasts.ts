import { atom, getDefaultStore, useAtomValue } from 'jotai';

export interface Toast {
  id: number;
  kind: 'success' | 'error';
  message: string;
  /** How many times this same message was raised while it was on screen (1 the first time). */
  count: number;
}

const DURATION_MS: Record<Toast['kind'], number> = { success: 2000, error: 4000 };
/** More than this and the oldest goes: a burst of failures must not cover the screen. */
export const MAX_TOASTS = 3;

const store = getDefaultStore();
const toastsAtom = atom<Toast[]>([]);
const timers = new Map<number, ReturnType<typeof setTimeout>>();
let nextId = 1;

export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  store.set(toastsAtom, (list) => list.filter((t) => t.id !== id));
}

/** Every toast at once: what the screens of a session that just ended had to say no longer applies. */
export function dismissAllToasts(): void {
  for (const { id } of store.get(toastsAtom)) dismissToast(id);
}

function expireLater(toast: Toast): void {
  clearTimeout(timers.get(toast.id));
  timers.set(
    toast.id,
    setTimeout(() => dismissToast(toast.id), DURATION_MS[toast.kind]),
  );
}

/** The same message again merges into the toast already shown (its count grows and its time restarts). */
function show(kind: Toast['kind'], message: string): void {
  const list = store.get(toastsAtom);
  const same = list.find((t) => t.kind === kind && t.message === message);
  if (same) {
    const merged = { ...same, count: same.count + 1 };
    store.set(toastsAtom, list.map((t) => (t.id === same.id ? merged : t)));
    expireLater(merged);
    return;
  }
  const added: Toast = { id: nextId++, kind, message, count: 1 };
  const next = [...list, added];
  next.slice(0, Math.max(0, next.length - MAX_TOASTS)).forEach((old) => {
    clearTimeout(timers.get(old.id));
    timers.delete(old.id);
  });
  store.set(toastsAtom, next.slice(-MAX_TOASTS));
  expireLater(added);
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
};

export function useToasts(): Toast[] {
  return useAtomValue(toastsAtom);
}
