import type { TimelineItem, TimelineSection } from './api';

const CHANNEL_LABELS: Record<TimelineSection['channel'], string> = {
  whatsapp: 'WhatsApp',
  email: 'Correos',
  calendar: 'Reuniones y eventos',
};

const dateTime = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' });

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

function Item({ item }: { item: TimelineItem }) {
  return (
    <li className="timeline-item">
      <time dateTime={item.at}>{when(item.at)}</time>
      <p className="timeline-title">
        {item.direction && <span className="muted">{item.direction === 'incoming' ? 'Recibido · ' : 'Enviado · '}</span>}
        {item.title}
      </p>
      {item.detail && <p className="muted timeline-detail">{item.detail}</p>}
    </li>
  );
}

/** One section per channel the product has; a channel without a service is simply not there. */
export function Timeline({ sections }: { sections: TimelineSection[] }) {
  const withItems = sections.filter((s) => s.items.length > 0);
  if (withItems.length === 0) return <p className="muted">Sin actividad registrada en WhatsApp, correo o calendario.</p>;
  return (
    <div className="timeline">
      {withItems.map((section) => (
        <section key={section.channel} aria-label={CHANNEL_LABELS[section.channel]}>
          <h3>{CHANNEL_LABELS[section.channel]}</h3>
          <ul className="timeline-list">
            {section.items.map((item) => (
              <Item key={`${item.channel}-${item.id}`} item={item} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
