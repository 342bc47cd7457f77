import { useId } from 'react';
import { FigureList } from './FigureList';
import type { WhatsappStats } from './types';

export function WhatsAppStatsCard({ stats }: { stats: WhatsappStats }) {
  const titleId = useId();
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Estadísticas de WhatsApp
      </h2>
      <FigureList
        figures={[
          { label: 'Enviados', value: stats.sent },
          { label: 'Recibidos', value: stats.received },
          { label: 'Contactos', value: stats.contacts },
          { label: 'Auto-respuestas', value: stats.autoReplies },
        ]}
      />
    </section>
  );
}
