import type { MailFolder } from './api';

export const FOLDER_LABELS: Record<MailFolder, string> = {
  inbox: 'Bandeja de entrada',
  sent: 'Enviados',
  drafts: 'Borradores',
  trash: 'Papelera',
};

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString('es', { maximumFractionDigits: 1 })} KB`;
  return `${(bytes / (1024 * 1024)).toLocaleString('es', { maximumFractionDigits: 1 })} MB`;
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  const today = new Date();
  if (date.toDateString() === today.toDateString()) return date.toLocaleTimeString('es', { hour: '2-digit', minute: '2-digit' });
  return date.toLocaleDateString('es', { day: 'numeric', month: 'short', year: date.getFullYear() === today.getFullYear() ? undefined : 'numeric' });
}

export function formatFullDate(iso: string): string {
  return new Date(iso).toLocaleString('es', { dateStyle: 'full', timeStyle: 'short' });
}

/** The display name of `Nombre <correo>`, or the address. */
export function senderName(from: string): string {
  const match = /^\s*"?([^"<]+?)"?\s*<[^>]+>\s*$/.exec(from);
  return match?.[1] ?? (from || '(sin remitente)');
}

/** A file picked in the browser as the API takes it (base64 without the data: prefix). */
export function readAsAttachment(file: File): Promise<{ filename: string; contentType: string; content: string }> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve({ filename: file.name, contentType: file.type || 'application/octet-stream', content: url.slice(url.indexOf(',') + 1) });
    };
    reader.onerror = () => reject(reader.error ?? new Error('No se pudo leer el archivo'));
    reader.readAsDataURL(file);
  });
}
