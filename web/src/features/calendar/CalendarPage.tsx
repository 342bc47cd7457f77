import { Fragment, useCallback, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { nextWorkingHour, WORK_DAY } from '../../lib/local-datetime';
import { PageHeader } from '../../ui/PageHeader';
import { getGoogleCalendars, getTeamsCalendars } from './api';
import './calendar.css';
import { CaldavCard } from './CaldavCard';
import { CalendarPicker, type PickerCalendar } from './CalendarPicker';
import { CalendarToolbar, type View } from './CalendarToolbar';
import { DayModal } from './DayModal';
import { byStart, matches, onDay, toDisplay, type DisplayEvent, type TypeFilter } from './display-event';
import { EventFormModal } from './EventFormModal';
import { defaultTarget, eventTargets } from './event-targets';
import { EventList } from './EventList';
import { MonthGrid } from './MonthGrid';
import { addMonths, dayKey, startOfMonth } from './month';
import { ProviderCards } from './ProviderCards';
import { SourceSwitch } from './SourceSwitch';
import { useCalendarData, type Source } from './use-calendar-data';

type Dialog =
  | { kind: 'event'; item?: DisplayEvent; day?: string }
  | { kind: 'day'; day: string }
  | { kind: 'pick-google' }
  | { kind: 'pick-teams' };

const CONNECT_GOOGLE = { href: '/google-calendar', label: 'Conectar Google Calendar' };
const CONNECT_TEAMS = { href: '/teams', label: 'Conectar Microsoft Teams' };

/** What the empty screen says and where it leads: on the merged tab any calendar will do. */
const HINTS = {
  calendar: {
    text: 'Conecta un calendario para ver y crear tus eventos aquí: Google Calendar, Outlook (con Microsoft Teams) o CalDAV (iCloud, Fastmail, Nextcloud) desde su tarjeta en esta página.',
    links: [CONNECT_GOOGLE, CONNECT_TEAMS],
  },
  google: { text: 'Conecta Google Calendar para ver y crear tus eventos aquí.', links: [CONNECT_GOOGLE] },
  'google-reconnect': { text: 'Vuelve a conectar Google: el permiso caducó o se retiró.', links: [CONNECT_GOOGLE] },
  teams: { text: 'Conecta Microsoft Teams para ver sus calendarios aquí.', links: [{ href: '/teams', label: 'Ir a Teams' }] },
} as const;

const loadGoogle = (): Promise<PickerCalendar[]> =>
  getGoogleCalendars().then((list) => list.map((c) => ({ id: c.id, name: c.summary, color: c.backgroundColor, primary: c.primary })));
const loadTeams = (): Promise<PickerCalendar[]> => getTeamsCalendars().then((list) => list.map((c) => ({ id: c.id, name: c.name, color: c.color })));

export function CalendarPage() {
  const [source, setSource] = useState<Source>('local');
  const [view, setView] = useState<View>('month');
  const [month, setMonth] = useState(() => startOfMonth(new Date()));
  const [googleCalendar, setGoogleCalendar] = useState('primary');
  const [teamsCalendar, setTeamsCalendar] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [type, setType] = useState<TypeFilter>('all');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const data = useCalendarData(source, month, googleCalendar, teamsCalendar);

  const items = useMemo(() => data.events.map(toDisplay).filter((i) => matches(i, search, type)), [data.events, search, type]);
  const monthItems = useMemo(() => {
    const first = dayKey(month);
    const last = dayKey(new Date(month.getFullYear(), month.getMonth() + 1, 0));
    return items.filter((i) => i.lastDay >= first && i.firstDay <= last).sort(byStart);
  }, [items, month]);

  const googleOn = data.googleStatus?.connected === true;
  // A new event can go to any listed calendar of the tab's providers (the local tab: Google, CalDAV and Outlook),
  // each written through /events with its calendar id.
  const targets = useMemo(
    () =>
      eventTargets({
        googleOn: googleOn && source !== 'teams',
        googleCalendars: data.googleCalendars,
        caldavCalendars: source === 'local' ? (data.caldavCalendars ?? []) : [],
        teamsOn: data.teamsStatus?.connected === true && source !== 'google',
        teamsCalendars: data.teamsCalendars,
      }),
    [googleOn, data.googleCalendars, data.caldavCalendars, data.teamsStatus, data.teamsCalendars, source],
  );
  const newEventCalendar = defaultTarget(targets, source, googleCalendar, teamsCalendar);
  const writable = newEventCalendar !== null;
  const googleName =
    data.googleCalendars.find((c) => (googleCalendar === 'primary' ? c.primary : c.id === googleCalendar))?.summary ?? 'Principal';
  const teamsName = data.teamsCalendars.find((c) => c.id === teamsCalendar)?.name ?? 'Predeterminado';
  const close = useCallback(() => setDialog(null), []);
  const saved = () => {
    setDialog(null);
    data.reload();
  };
  // A day picked in the grid starts at the working day's first hour; otherwise the next working hour.
  const defaultStart = (day?: string) => (day ? new Date(`${day}T${String(WORK_DAY.firstHour).padStart(2, '0')}:00`) : nextWorkingHour());
  const hint = data.hint ? HINTS[data.hint] : null;

  return (
    <>
      <PageHeader title="Calendario" subtitle="Tus eventos de Google, Microsoft Teams y CalDAV en un solo lugar" actions={<SourceSwitch source={source} onChange={setSource} />} />
      <ProviderCards
        googleStatus={data.googleStatus}
        googleCalendarName={googleName}
        teamsStatus={data.teamsStatus}
        teamsCalendarName={teamsName}
        loadedAt={data.loadedAt}
        loading={data.loading}
        onListGoogle={() => setDialog({ kind: 'pick-google' })}
        onRefreshGoogle={() => {
          if (source === 'teams') setSource('google');
          data.reload(true);
        }}
        onListTeams={() => setDialog({ kind: 'pick-teams' })}
        onRefreshTeams={() => {
          setSource('teams');
          data.reload(true);
        }}
        onRefresh={() => data.reload(true)}
      />
      <CaldavCard
        status={data.caldavStatus}
        calendars={data.caldavCalendars}
        onChanged={() => {
          setSource('local');
          data.reload(true);
        }}
      />
      <CalendarToolbar
        month={month}
        onPrevious={() => setMonth((m) => addMonths(m, -1))}
        onNext={() => setMonth((m) => addMonths(m, 1))}
        onToday={() => setMonth(startOfMonth(new Date()))}
        view={view}
        onView={setView}
        search={search}
        onSearch={setSearch}
        type={type}
        onType={setType}
        canCreate={writable}
        onCreate={() => setDialog({ kind: 'event' })}
      />
      {hint && (
        <p className="card cal-hint" role="status">
          {hint.text}
          {hint.links.map((link) => (
            <Fragment key={link.href}>
              {' '}
              <Link href={link.href}>{link.label}</Link>
            </Fragment>
          ))}
        </p>
      )}
      {data.error && (
        <p className="card cal-error" role="alert">
          No se pudieron cargar los eventos: {data.error}
        </p>
      )}
      {data.loading && data.events.length === 0 && (
        <p className="muted" role="status">
          Cargando eventos...
        </p>
      )}
      {view === 'month' ? (
        <MonthGrid
          month={month}
          items={items}
          onOpenEvent={(item) => setDialog({ kind: 'event', item })}
          onOpenDay={(day) => setDialog({ kind: 'day', day })}
          onCreateOn={writable ? (day) => setDialog({ kind: 'event', day }) : null}
        />
      ) : (
        <EventList items={monthItems} onOpenEvent={(item) => setDialog({ kind: 'event', item })} />
      )}
      {dialog?.kind === 'day' && (
        <DayModal dayKey={dialog.day} items={onDay(items, dialog.day)} onClose={close} onOpenEvent={(item) => setDialog({ kind: 'event', item })} />
      )}
      {dialog?.kind === 'event' && (
        <EventFormModal
          item={dialog.item}
          calendarId={newEventCalendar ?? 'primary'}
          targets={targets}
          defaultStart={defaultStart(dialog.day)}
          onClose={close}
          onSaved={saved}
        />
      )}
      {dialog?.kind === 'pick-google' && (
        <CalendarPicker
          title="Elegir calendario de Google"
          load={loadGoogle}
          current={googleCalendar}
          onClose={close}
          onChoose={(id) => {
            setGoogleCalendar(id);
            setSource('google');
            setDialog(null);
          }}
        />
      )}
      {dialog?.kind === 'pick-teams' && (
        <CalendarPicker
          title="Elegir calendario de Teams"
          load={loadTeams}
          current={teamsCalendar}
          onClose={close}
          onChoose={(id) => {
            setTeamsCalendar(id);
            setSource('teams');
            setDialog(null);
          }}
        />
      )}
    </>
  );
}
