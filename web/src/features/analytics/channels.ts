import type { AnalyticsData } from './types';

export interface Channel {
  name: string;
  value: number;
  fill: string;
}

/** The donut's slices: what each channel carried in the period. */
export function channelsOf({ whatsapp, emails, teams, totals }: AnalyticsData): Channel[] {
  return [
    { name: 'WhatsApp', value: whatsapp.sent, fill: '#16a34a' },
    { name: 'Email', value: emails.sent, fill: '#4f46e5' },
    { name: 'Teams', value: teams.messages, fill: '#9333ea' },
    { name: 'Calendario', value: totals.totalEvents, fill: '#ea580c' },
  ];
}
