import type { TeamsMeeting } from './api';

/** Spec: scheduled = 'Programada', in-progress = 'En curso', otherwise 'Finalizada'. */
export function meetingStatusLabel(status: TeamsMeeting['status']): string {
  if (status === 'scheduled') return 'Programada';
  if (status === 'in-progress') return 'En curso';
  return 'Finalizada';
}

const dateTime = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' });
const time = new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit' });

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateTime.format(date);
}

/** Today's messages show the time only; older ones the date too. */
export function formatMessageTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toDateString() === now.toDateString() ? time.format(date) : dateTime.format(date);
}
