import { Link } from 'wouter';
import { Icon } from '../../ui/Icon';
import type { SetupStatus, SetupStepView } from './setup';

/**
 * The first steps of a new account, each ticked off from what its service says is connected; only the steps
 * the session's role can take (an agent connects their own mail and calendars, not the workspace's WhatsApp).
 */
export function SetupChecklist({ status, steps }: { status: SetupStatus; steps: readonly SetupStepView[] }) {
  const done = steps.filter((s) => status[s.step]).length;
  return (
    <section className="card setup-checklist" aria-labelledby="primeros-pasos">
      <div className="setup-head">
        <h2 id="primeros-pasos" className="card-title">
          Primeros pasos
        </h2>
        <p className="muted">
          {done} de {steps.length} completados
        </p>
      </div>
      <progress max={steps.length} value={done} aria-label="Progreso de la configuración" />
      <ul className="setup-list">
        {steps.map(({ step, label, href, doneLabel }) =>
          status[step] ? (
            <li key={step} className="setup-done" data-step={step}>
              <span className="setup-mark" aria-hidden="true">
                ✓
              </span>
              <span>{doneLabel}</span>
              <span className="sr-only">(completado)</span>
            </li>
          ) : (
            <li key={step} data-step={step}>
              <span className="setup-mark setup-mark-todo" aria-hidden="true" />
              <Link href={href} className="setup-link">
                {label}
                <Icon name="plus" size={16} />
              </Link>
            </li>
          ),
        )}
      </ul>
    </section>
  );
}
