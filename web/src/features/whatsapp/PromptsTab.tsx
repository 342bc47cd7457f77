import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { AssistantConfig } from '@asistente/contracts';
import { getJson, sendJson } from '../../lib/http';
import { toast } from '../../lib/toasts';
import { usePermissions } from '../../lib/workspace-roles';
import { Button } from '../../ui/Button';
import { RoleNote } from '../../ui/RoleNote';
import { TextField } from '../../ui/TextField';
import {
  addVariable,
  defaultConfig,
  MAX_TOKENS,
  MODELS,
  readStoredConfig,
  restoreDefaults,
  SOURCES,
  storeConfig,
  validateConfig,
} from './assistant-config';
import { mayEditAssistant, withoutAutoReplySettings } from './assistant';

const loadConfig = () => getJson<{ data: AssistantConfig }>('ai/assistant').then((answer) => answer.data);
const saveConfig = (config: AssistantConfig) => sendJson<{ success: boolean; data: AssistantConfig }>('put', 'ai/assistant', config);

/**
 * The Prompts IA tab: the assistant configuration form over /api/ai/assistant, its copy kept in local storage.
 * `children` render below the form (the assistant's automatic-answer settings and tester plug in there).
 * A role that may not save it reads the same form with every field off, and can still copy the prompt.
 */
export function PromptsTab({ children }: { children?: ReactNode }) {
  const titleId = useId();
  const editable = usePermissions(mayEditAssistant) === true;
  const [config, setConfig] = useState<AssistantConfig>(() => readStoredConfig() ?? defaultConfig());
  const [loadFailed, setLoadFailed] = useState(false);
  const [savedOnlyHere, setSavedOnlyHere] = useState(false);
  const [saving, setSaving] = useState(false);
  const [newVar, setNewVar] = useState('');
  // The saved configuration arrives after the form shows this browser's copy; what the user has typed by then wins.
  const edited = useRef(false);

  useEffect(() => {
    let current = true;
    loadConfig().then(
      (loaded) => {
        if (!current || edited.current) return;
        setConfig(loaded);
        storeConfig(loaded);
      },
      (err: unknown) => {
        console.error('No se pudo cargar la configuración del asistente', err);
        if (current) setLoadFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const set = <K extends keyof AssistantConfig>(key: K, value: AssistantConfig[K]) => {
    edited.current = true;
    setConfig((c) => ({ ...c, [key]: value }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateConfig(config);
    if (invalid) {
      toast.error(invalid);
      return;
    }
    const toSave = { ...config, name: config.name.trim() };
    storeConfig(toSave);
    setSaving(true);
    try {
      const answer = await saveConfig(withoutAutoReplySettings(toSave));
      setConfig(answer.data);
      storeConfig(answer.data);
      setSavedOnlyHere(false);
      toast.success('Configuración del asistente guardada');
    } catch (err) {
      // The spec keeps this silent (local storage already holds it); the note below says where it lives.
      console.error('No se pudo guardar la configuración del asistente', err);
      setSavedOnlyHere(true);
    } finally {
      setSaving(false);
    }
  };

  const copyPrompt = async () => {
    try {
      await navigator.clipboard.writeText(config.systemPrompt);
      toast.success('Prompt copiado');
    } catch (err) {
      console.error('No se pudo copiar el prompt', err);
      toast.error('No se pudo copiar el prompt');
    }
  };

  const restore = () => {
    const restored = restoreDefaults(config);
    edited.current = true;
    setConfig(restored);
    storeConfig(restored);
    toast.success('Restaurado por defecto');
  };

  const onVarKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    set('customVars', addVariable(config.customVars, newVar));
    setNewVar('');
  };

  const toggleSource = (value: AssistantConfig['internalSources'][number], on: boolean) =>
    set('internalSources', on ? [...config.internalSources.filter((s) => s !== value), value] : config.internalSources.filter((s) => s !== value));

  return (
    <div className="wa-prompts">
      <section className="card" aria-labelledby={titleId}>
        <h2 id={titleId} className="card-title">
          Asistente IA
        </h2>
        {loadFailed && <p className="alert-warning">No se pudo cargar la configuración guardada; se muestra la copia de este navegador.</p>}
        {savedOnlyHere && <p className="alert-warning">Guardado solo en este navegador: el servidor no respondió.</p>}
        <form onSubmit={(e) => void onSubmit(e)} noValidate>
          {/* A disabled fieldset turns off every field inside at once. */}
          <fieldset className="wa-prompt-fields" disabled={!editable}>
            <div className="form-row">
              <TextField label="Nombre del asistente" value={config.name} maxLength={80} onInput={(e) => set('name', e.currentTarget.value)} />
              <TextField label="Tono" value={config.tone} maxLength={200} onInput={(e) => set('tone', e.currentTarget.value)} />
            </div>
            <div className="field">
              <label htmlFor={`${titleId}-goal`}>Objetivo</label>
              <textarea id={`${titleId}-goal`} rows={2} maxLength={1000} value={config.goal} onInput={(e) => set('goal', e.currentTarget.value)} />
            </div>
            <div className="field">
              <label htmlFor={`${titleId}-prompt`}>Prompt del sistema</label>
              <textarea
                id={`${titleId}-prompt`}
                rows={10}
                maxLength={10_000}
                value={config.systemPrompt}
                onInput={(e) => set('systemPrompt', e.currentTarget.value)}
              />
            </div>
            <div className="field">
              <span className="field-label">Variables</span>
              <ul className="wa-chips" aria-label="Variables disponibles">
                {[...config.variables, ...config.customVars].map((v) => (
                  <li key={v} className="wa-chip">
                    {v}
                    {editable && config.customVars.includes(v) && (
                      <button type="button" aria-label={`Quitar ${v}`} onClick={() => set('customVars', config.customVars.filter((x) => x !== v))}>
                        ×
                      </button>
                    )}
                  </li>
                ))}
              </ul>
              {editable && (
                <TextField
                  label="Añadir variable personalizada"
                  placeholder="{mi_variable} y pulsa Enter"
                  value={newVar}
                  maxLength={60}
                  onInput={(e) => setNewVar(e.currentTarget.value)}
                  onKeyDown={onVarKey}
                />
              )}
            </div>
            <fieldset className="field wa-sources">
              <legend>Fuentes internas</legend>
              {SOURCES.map((source) => (
                <label key={source.value} className="wa-check">
                  <input
                    type="checkbox"
                    checked={config.internalSources.includes(source.value)}
                    onChange={(e) => toggleSource(source.value, e.currentTarget.checked)}
                  />
                  {source.label}
                </label>
              ))}
              <label className="wa-check">
                <input type="checkbox" checked={config.allowWeb} onChange={(e) => set('allowWeb', e.currentTarget.checked)} />
                Permitir búsqueda web
              </label>
            </fieldset>
            <div className="form-row">
              <div className="field">
                <label htmlFor={`${titleId}-model`}>Modelo</label>
                <select id={`${titleId}-model`} value={config.model} onChange={(e) => set('model', e.currentTarget.value as AssistantConfig['model'])}>
                  {MODELS.map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={`${titleId}-temp`}>Temperatura: {config.temperature.toFixed(1)}</label>
                <input
                  id={`${titleId}-temp`}
                  type="range"
                  min={0}
                  max={1}
                  step={0.1}
                  value={config.temperature}
                  onInput={(e) => set('temperature', Math.round(Number(e.currentTarget.value) * 10) / 10)}
                />
              </div>
              <TextField
                label="Tokens máximos"
                type="number"
                min={MAX_TOKENS.min}
                max={MAX_TOKENS.max}
                value={Number.isNaN(config.maxTokens) ? '' : config.maxTokens}
                onInput={(e) => set('maxTokens', Number.parseInt(e.currentTarget.value, 10))}
              />
            </div>
          </fieldset>
          <div className="form-actions form-actions-start wa-actions">
            {editable && (
              <Button type="submit" disabled={saving}>
                {saving ? 'Guardando...' : 'Guardar configuración'}
              </Button>
            )}
            <Button variant="secondary" onClick={() => void copyPrompt()}>
              Copiar prompt
            </Button>
            {editable && (
              <Button variant="secondary" onClick={restore}>
                Restaurar por defecto
              </Button>
            )}
          </div>
          {!editable && <RoleNote />}
        </form>
      </section>
      {children}
    </div>
  );
}
