import { Type, type TOptional, type TString } from '@sinclair/typebox';
import { defineSettings, type SettingsDefinition } from '../settings.js';

/** The variable a service's address is read from in the distributed topology: `contacts` → `CONTACTS_URL`. */
export function serviceUrlVariable(service: string): string {
  return `${service.toUpperCase()}_URL`;
}

/**
 * The `<NAME>_URL` of each of `services` (the list is the caller's: the kit knows no service), each optional
 * and possibly several replicas, comma-separated. A process hands it to its platform so a typo stops the boot.
 */
export function serviceUrls(services: readonly string[]): SettingsDefinition<Record<string, TOptional<TString>>> {
  return defineSettings(Object.fromEntries(services.map((service) => [serviceUrlVariable(service), Type.Optional(Type.String({ pattern: '^https?://' }))])));
}
