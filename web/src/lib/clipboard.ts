import { toast } from './toasts';

/** Copies `value` and says so; where the browser refuses the clipboard, the person is told to copy it by hand. */
export async function copyText(value: string, copiedMessage: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
    toast.success(copiedMessage);
  } catch {
    toast.error('No se pudo copiar: selecciónalo y cópialo a mano');
  }
}
