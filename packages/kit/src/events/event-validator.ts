import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { EVENT_DATA, eventEnvelope, type DomainEvent, type EventType } from '@asistente/contracts';

// ajv-formats ships CommonJS; under NodeNext its function sits on `.default`.
const addFormats = addFormatsModule.default;

export type Validation = { ok: true; event: DomainEvent } | { ok: false; reason: string };

/**
 * Checks an incoming event against the catalogue (packages/contracts/src/events.ts): unknown types and bad
 * payloads are refused, and what passes is a `DomainEvent`, whose `type` narrows `data` to its shape. Every
 * consumer reads its events through one, so none guesses at fields.
 */
export class EventValidator {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor() {
    const ajv = new Ajv({ allErrors: false, strict: false });
    addFormats(ajv);
    for (const type of Object.keys(EVENT_DATA) as EventType[]) {
      this.validators.set(type, ajv.compile(eventEnvelope(type, EVENT_DATA[type])));
    }
  }

  validate(input: unknown): Validation {
    const type = (input as { type?: unknown } | null)?.type;
    if (typeof type !== 'string') return { ok: false, reason: 'event without a type' };
    const validator = this.validators.get(type);
    if (!validator) return { ok: false, reason: `unknown event type ${type}` };
    if (!validator(input)) {
      const [error] = validator.errors ?? [];
      return { ok: false, reason: `${type}: ${error?.instancePath || '/'} ${error?.message ?? 'invalid'}` };
    }
    return { ok: true, event: input as DomainEvent };
  }
}
