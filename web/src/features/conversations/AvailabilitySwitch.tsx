/** The member's own «Disponible / Ausente»: automatic assignment only gives new conversations to available members. */
export function AvailabilitySwitch({ available, saving, onChange }: { available: boolean | null; saving: boolean; onChange: (available: boolean) => void }) {
  return (
    <div className="inbox-segmented inbox-availability" role="group" aria-label="Tu estado en la bandeja">
      {[
        { value: true, label: 'Disponible' },
        { value: false, label: 'Ausente' },
      ].map((s) => (
        <button
          key={s.label}
          type="button"
          aria-pressed={available === s.value}
          className={available === s.value ? 'is-active' : ''}
          disabled={available === null || saving}
          onClick={() => available !== s.value && onChange(s.value)}
        >
          {s.label}
        </button>
      ))}
    </div>
  );
}
