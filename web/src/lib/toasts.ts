import { atom, getDefaultStore, useAtomValue } from 'jotai';

export interface Toast {
  id: number;
  kind: 'success' | 'error';
  message: string;
}

const DURATION_MS: Record<Toast['kind'], number> = { success: 2000, error: 4000 };

const store = getDefaultStore();
const toastsAtom = atom<Toast[]>([]);
let nextId = 1;

export function dismissToast(id: number): void {
  store.set(toastsAtom, (list) => list.filter((t) => t.id !== id));
}

function show(kind: Toast['kind'], message: string): void {
  const id = nextId++;
  store.set(toastsAtom, (list) => [...list, { id, kind, message }]);
  setTimeout(() => dismissToast(id), DURATION_MS[kind]);
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
};

export function useToasts(): Toast[] {
  return useAtomValue(toastsAtom);
}
