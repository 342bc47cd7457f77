import type { Source } from './use-calendar-data';

const SOURCES: { value: Source; label: string; hint: string }[] = [
  { value: 'local', label: 'Local', hint: 'Todos tus calendarios sincronizados' },
  { value: 'google', label: 'Google', hint: 'Un calendario de Google' },
  { value: 'teams', label: 'Teams', hint: 'Calendarios de Microsoft Teams' },
];

export function SourceSwitch({ source, onChange }: { source: Source; onChange: (source: Source) => void }) {
  return (
    <div className="cal-segmented" role="group" aria-label="Origen de los eventos">
      {SOURCES.map((s) => (
        <button key={s.value} type="button" title={s.hint} aria-pressed={source === s.value} className={source === s.value ? 'is-active' : ''} onClick={() => onChange(s.value)}>
          {s.label}
        </button>
      ))}
    </div>
  );
}
