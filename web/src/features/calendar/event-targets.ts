import type { CaldavCalendarEntry, GoogleCalendarEntry, MicrosoftCalendar } from './api';
import type { Source } from './use-calendar-data';

/** A calendar a new event can go to: its calendarId for /events and the provider it belongs to. */
export interface EventTarget {
  id: string;
  name: string;
  provider: 'Google' | 'CalDAV' | 'Outlook';
}

interface Connected {
  googleOn: boolean;
  googleCalendars: GoogleCalendarEntry[];
  caldavCalendars: CaldavCalendarEntry[];
  teamsOn: boolean;
  teamsCalendars: MicrosoftCalendar[];
}

/**
 * Every calendar of a connected provider that the screen has listed, grouped by provider. Google's primary
 * is 'primary' (as /events has always named it); with Google connected but its list not there, 'primary' alone.
 */
export function eventTargets(c: Connected): EventTarget[] {
  const google: EventTarget[] = !c.googleOn
    ? []
    : c.googleCalendars.length === 0
      ? [{ id: 'primary', name: 'Principal', provider: 'Google' }]
      : c.googleCalendars.map((g) => ({ id: g.primary ? 'primary' : g.id, name: g.summary, provider: 'Google' }));
  const caldav = c.caldavCalendars.map((d): EventTarget => ({ id: d.id, name: d.name, provider: 'CalDAV' }));
  const outlook = c.teamsOn ? c.teamsCalendars.map((m): EventTarget => ({ id: m.id, name: m.name, provider: 'Outlook' })) : [];
  return [...google, ...caldav, ...outlook];
}

/**
 * Where Nuevo evento points first: the Google tab's chosen calendar; the Teams tab's chosen Outlook calendar
 * (else the first listed, Outlook's default); the local tab Google's primary, else the first CalDAV calendar,
 * else the first Outlook one. Null when nothing is writable.
 */
export function defaultTarget(targets: EventTarget[], source: Source, googleCalendar: string, teamsCalendar: string | null): string | null {
  const first = (provider: EventTarget['provider']) => targets.find((t) => t.provider === provider)?.id;
  if (source === 'google') return targets.some((t) => t.provider === 'Google') ? googleCalendar : null;
  if (source === 'teams') return teamsCalendar ?? first('Outlook') ?? null;
  return first('Google') !== undefined ? 'primary' : (first('CalDAV') ?? first('Outlook') ?? null);
}
