import { Button } from '../../ui/Button';

/** Whether the assistant answers this customer; a person taking over pauses it, and hands it back here. */
export function AssistantState({ active, disabled, onChange }: { active: boolean; disabled: boolean; onChange: (active: boolean) => void }) {
  return (
    <div className={active ? 'inbox-assistant is-active' : 'inbox-assistant'}>
      <p>{active ? 'El asistente responde aquí' : 'Asistente en pausa'}</p>
      <Button variant="secondary" small disabled={disabled} onClick={() => onChange(!active)}>
        {active ? 'Pausar asistente' : 'Devolver al asistente'}
      </Button>
    </div>
  );
}
