import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * Where settings are read from: the process's environment, or the values a test hands its platform. Values
 * may be strings (the environment) or already typed (a test's `{ SCRYPT_COST: 10 }`); both are converted.
 */
export type SettingsSource = Readonly<Record<string, unknown>>;

/**
 * A group of environment variables, declared by whoever owns them: the platform (its config), a service
 * (`services/<name>/src/settings.ts`) or the gateway. Read with `platform.settings(definition)`.
 */
export interface SettingsDefinition<P extends TProperties = TProperties> {
  readonly schema: TObject<P>;
}

/** The values a definition reads, typed by its schema. */
export type SettingsOf<D extends SettingsDefinition> = Static<D['schema']>;

/** Declares a group of variables: their names, types, defaults and ranges, as TypeBox properties. */
export function defineSettings<P extends TProperties>(properties: P): SettingsDefinition<P> {
  return { schema: Type.Object(properties) };
}

/** Values of these may hold a credential (a URL with a password): never echoed. */
const SENSITIVE = /SECRET|KEY|URL|PASSWORD|TOKEN/;

export class ConfigError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the variables a definition declares from `source` (empty strings count as unset), with their
 * defaults, converted to their types; the first bad one is a `ConfigError` naming it, and never showing a
 * value that may be a credential.
 */
export function readSettings<P extends TProperties>(definition: SettingsDefinition<P>, source: SettingsSource): Static<TObject<P>> {
  const { schema } = definition;
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const converted = Value.Convert(schema, Value.Default(schema, raw));
  const first = Value.Errors(schema, converted).First();
  if (first) {
    const variable = first.path.replace(/^\//, '') || '(environment)';
    const shown = SENSITIVE.test(variable) ? '' : ` (got ${JSON.stringify(raw[variable] ?? null)})`;
    throw new ConfigError(variable, `${describe(first.schema)}${shown}`);
  }
  return converted as Static<TObject<P>>;
}

function describe(schema: Record<string, unknown>): string {
  if (schema.type === 'integer') {
    const range = [schema.minimum, schema.maximum].some((v) => v !== undefined)
      ? ` between ${String(schema.minimum ?? '-∞')} and ${String(schema.maximum ?? '∞')}`
      : '';
    return `must be an integer${range}`;
  }
  if (schema.type === 'boolean') return 'must be true or false';
  if (typeof schema.pattern === 'string') return `must match ${schema.pattern}`;
  if (typeof schema.minLength === 'number') return `must be at least ${schema.minLength} characters long`;
  if (Array.isArray(schema.anyOf)) {
    return `must be one of ${schema.anyOf.map((s: { const?: unknown }) => String(s.const)).join(', ')}`;
  }
  return 'is invalid';
}
