/**
 * The port each service listens on by default in the distributed topology
 * (PORT overrides it). Kept here rather than in the gateway's routing table
 * because services may not import the gateway; the table refers to it.
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
