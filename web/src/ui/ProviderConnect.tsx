import type { ReactNode } from 'react';
import { Button } from './Button';
import { Icon, type IconName } from './Icon';
import './provider-connect.css';

export interface ProviderFeature {
  icon: IconName;
  title: string;
  text: string;
}

interface ProviderConnectProps {
  /** Prefix of the heading's id (unique on the page). */
  id: string;
  title: string;
  intro: string;
  /** Warnings shown above the button (reconnect, not configured, the last error); empty ones are skipped. */
  alerts: (ReactNode | null | false | undefined)[];
  /** A note of its own above the warnings, for what a sentence cannot hold (a not-configured note and its details). */
  notice?: ReactNode;
  connectLabel: string;
  connectingLabel: string;
  waitingText: string;
  features: readonly ProviderFeature[];
  configured: boolean;
  connecting: boolean;
  waiting: boolean;
  onConnect: () => void;
}

/**
 * The screen of a provider not connected yet (Google Calendar, Microsoft Teams): what connecting brings,
 * the warnings that apply, and the button that opens the provider's consent in another tab.
 */
export function ProviderConnect({ id, title, intro, notice, alerts, connectLabel, connectingLabel, waitingText, features, configured, connecting, waiting, onConnect }: ProviderConnectProps) {
  return (
    <section className="card provider-connect" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="muted">{intro}</p>
      {notice}
      {alerts.filter(Boolean).map((alert, i) => (
        <p key={i} className="alert-warning" role="alert">
          {alert}
        </p>
      ))}
      <Button onClick={onConnect} disabled={!configured || connecting}>
        {connecting ? connectingLabel : connectLabel}
      </Button>
      {waiting && <p className="muted provider-waiting">{waitingText}</p>}
      <div className="provider-features">
        {features.map((f) => (
          <article key={f.title} className="provider-feature">
            <Icon name={f.icon} size={22} />
            <h3>{f.title}</h3>
            <p className="muted">{f.text}</p>
          </article>
        ))}
      </div>
    </section>
  );
}
