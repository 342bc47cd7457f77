import { useEffect, useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/errors';
import { toast } from '../../../lib/toasts';
import { usePermissions } from '../../../lib/workspace-roles';
import { SaveOrRoleNote } from '../../../ui/SaveOrRoleNote';
import { getAssistantConfig, mayEditAssistant, saveAssistantConfig } from './api';
import { AutoReplyControls } from './AutoReplyControls';
import { autoReplySettings, validateSettings, type AutoReplySettingsValue } from './format';
import { UsageToday } from './UsageToday';

/**
 * The automatic-answer settings as a card of their own, for a screen whose assistant form does not hold
 * them: it saves onto the configuration as stored right before saving, so no other field is overwritten.
 * Read-only for a role that may not save the assistant's configuration.
 */
export function AutoReplySettings() {
  const titleId = useId();
  const editable = usePermissions(mayEditAssistant) === true;
  const [value, setValue] = useState<AutoReplySettingsValue | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [savedCount, setSavedCount] = useState(0);

  useEffect(() => {
    let current = true;
    getAssistantConfig().then(
      (config) => current && setValue(autoReplySettings(config)),
      (err: unknown) => {
        console.error('No se pudo cargar la configuración del asistente', err);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!value) return;
    const invalid = validateSettings(value);
    if (invalid) return toast.error(invalid);
    setSaving(true);
    try {
      const saved = await saveAssistantConfig({ ...(await getAssistantConfig()), ...value });
      setValue(autoReplySettings(saved));
      setSavedCount((n) => n + 1);
      toast.success('Configuración del asistente guardada');
    } catch (err) {
      console.error('No se pudo guardar la configuración del asistente', err);
      toast.error(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Respuestas automáticas con IA
      </h2>
      {failed && <p className="field-error">No se pudo cargar la configuración del asistente</p>}
      {!failed && !value && <p className="muted">Cargando...</p>}
      {value && (
        <form onSubmit={onSubmit} noValidate>
          <AutoReplyControls value={value} onChange={setValue} disabled={saving || !editable} />
          <UsageToday refreshKey={savedCount} />
          <SaveOrRoleNote editable={editable} saving={saving} />
        </form>
      )}
    </section>
  );
}
