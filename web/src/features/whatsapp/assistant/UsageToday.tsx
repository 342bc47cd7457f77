import type { AiUsageToday } from '@asistente/contracts';
import { useEffect, useState } from 'react';
import { getUsageToday } from './api';
import { usageLabel } from './format';

/** What the assistant spent today against the daily budget; says so when the automatic answers stopped. */
export function UsageToday({ refreshKey = 0 }: { refreshKey?: number }) {
  const [usage, setUsage] = useState<AiUsageToday | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    getUsageToday().then(
      (loaded) => {
        if (!current) return;
        setUsage(loaded);
        setFailed(false);
      },
      (err: unknown) => {
        console.error('No se pudo cargar el gasto de hoy del asistente', err);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [refreshKey]);

  if (failed) return <p className="field-error">No se pudo cargar el gasto de hoy del asistente</p>;
  if (!usage) return null;
  const { text, warning } = usageLabel(usage);
  return (
    <div>
      <p className="muted">{text}</p>
      {warning && (
        <p className="field-error" role="status">
          {warning}
        </p>
      )}
    </div>
  );
}
