import { useId } from 'react';
import { PERIODS, type AnalyticsPeriod } from './types';

interface PeriodSelectProps {
  value: AnalyticsPeriod;
  onChange: (period: AnalyticsPeriod) => void;
}

export function PeriodSelect({ value, onChange }: PeriodSelectProps) {
  const id = useId();
  return (
    <div className="period-select">
      <label htmlFor={id}>Periodo</label>
      <select
        id={id}
        value={value}
        onChange={(e) => {
          const chosen = PERIODS.find((p) => p.value === e.currentTarget.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {PERIODS.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </select>
    </div>
  );
}
