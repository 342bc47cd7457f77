/**
 * The services, each with the port it listens on by default in the distributed topology (PORT overrides
 * it): the one list the gateway's routing table, the services' entry points and the deploy checks read. The
 * kit names none; a process hands it this list (its sibling URLs, `<NAME>_URL`).
 */
export const SERVICE_PORTS = {
  auth: 3001,
  contacts: 3002,
  calendar: 3003,
  whatsapp: 3004,
  email: 3005,
  teams: 3006,
  ai: 3007,
  analytics: 3008,
  webhooks: 3009,
  inbox: 3010,
} as const satisfies Record<string, number>;

export type ServiceName = keyof typeof SERVICE_PORTS;

export const SERVICE_NAMES = Object.keys(SERVICE_PORTS) as ServiceName[];
