// The house's import boundaries (ARCHITECTURE.md) are lint rules in eslint.config.js; CI runs `npm test`,
// not `npm run lint`, so this test is where they are enforced: the repository's own sources break none of
// them, and each rule fires on a small file that breaks it (linted from memory at a path inside the tree,
// so the rule resolves its imports as it would for a real file there).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import t from 'tap';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const boundaryRules = new Set(['house/no-cross-service', 'house/domain-no-adapters', 'house/no-cross-feature', 'house/lazy-sdk', 'house/kit-names-no-service', 'no-restricted-imports']);

// The real config (so the test fails if a rule is dropped from it), running only the boundary rules.
const eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => boundaryRules.has(ruleId) });

/** Rule ids reported for `code` as if it were the file at `file` (a path from the repository root). */
async function rulesFiredOn(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? `fatal: ${message.message}`);
}

t.test('the sources break none of the house rules', async (t) => {
  const results = await eslint.lintFiles(['packages/*/src/**/*.ts', 'services/*/src/**/*.ts', 'gateway/src/**/*.ts', 'cli/src/**/*.ts', 'web/src/**/*.{ts,tsx}']);
  const found = results.flatMap((result) =>
    result.messages.map((m) => `${path.relative(root, result.filePath)}:${m.line} ${m.ruleId ?? 'fatal'} ${m.message}`),
  );
  t.ok(results.length > 100, `linted ${results.length} files`);
  t.same(found, [], 'no boundary is crossed');
});

const cases: { rule: string; file: string; code: string; fires: boolean }[] = [
  // Services never import each other, by package name, by a relative path, or dynamically.
  { rule: 'house/no-cross-service', file: 'services/email/src/domain/x.ts', code: "import contacts from '@asistente/contacts';", fires: true },
  { rule: 'house/no-cross-service', file: 'services/email/src/x.ts', code: "import { a } from '../../contacts/src/domain/a.js';", fires: true },
  { rule: 'house/no-cross-service', file: 'services/email/src/x.ts', code: "export const load = () => import('@asistente/teams');", fires: true },
  { rule: 'house/no-cross-service', file: 'services/email/src/x.ts', code: "import { a } from './domain/a.js';", fires: false },
  // The gateway and the CLI mount services through their entry point, and only that.
  { rule: 'house/no-cross-service', file: 'gateway/src/x.ts', code: "export const load = () => import('@asistente/email');", fires: false },
  { rule: 'house/no-cross-service', file: 'gateway/src/x.ts', code: "import { a } from '../../services/email/src/domain/a.js';", fires: true },
  { rule: 'house/no-cross-service', file: 'cli/src/x.ts', code: "import { a } from '@asistente/email/src/domain/a.js';", fires: true },
  // A service's domain never imports its adapters; adapters may import the domain's ports.
  { rule: 'house/domain-no-adapters', file: 'services/email/src/domain/x.ts', code: "import type { A } from '../adapters/a.js';", fires: true },
  { rule: 'house/domain-no-adapters', file: 'services/email/src/domain/deep/x.ts', code: "import { a } from '../../adapters/a.js';", fires: true },
  { rule: 'house/domain-no-adapters', file: 'services/email/src/adapters/x.ts', code: "import type { A } from '../domain/a.js';", fires: false },
  // Only packages/kit imports the database and NATS drivers.
  { rule: 'no-restricted-imports', file: 'services/email/src/x.ts', code: "import postgres from 'postgres';", fires: true },
  { rule: 'no-restricted-imports', file: 'gateway/src/x.ts', code: "import { connect } from '@nats-io/transport-node';", fires: true },
  { rule: 'no-restricted-imports', file: 'cli/src/x.ts', code: "import { PGlite } from '@electric-sql/pglite';", fires: true },
  { rule: 'no-restricted-imports', file: 'services/email/src/x.ts', code: "import { connect } from 'nats';", fires: true },
  { rule: 'no-restricted-imports', file: 'web/src/features/emails/x.ts', code: "import postgres from 'postgres';", fires: true },
  { rule: 'no-restricted-imports', file: 'packages/kit/src/x.ts', code: "import postgres from 'postgres';", fires: false },
  // Provider SDKs stay in a service's adapters (with the driver ban still in force there).
  { rule: 'no-restricted-imports', file: 'services/email/src/domain/x.ts', code: "import { ImapFlow } from 'imapflow';", fires: true },
  { rule: 'no-restricted-imports', file: 'services/email/src/domain/x.ts', code: "import MailComposer from 'nodemailer/lib/mail-composer';", fires: true },
  { rule: 'no-restricted-imports', file: 'services/teams/src/domain/x.ts', code: "import type * as Graph from '@microsoft/microsoft-graph-types';", fires: true },
  { rule: 'no-restricted-imports', file: 'services/teams/src/routes/x.ts', code: "import { GraphError } from '@microsoft/microsoft-graph-client';", fires: true },
  { rule: 'no-restricted-imports', file: 'services/email/src/adapters/x.ts', code: "import { ImapFlow } from 'imapflow';", fires: false },
  { rule: 'no-restricted-imports', file: 'services/email/src/adapters/x.ts', code: "import postgres from 'postgres';", fires: true },
  // SDKs a feature needs once configured are loaded when first used, never by a static import (issue 37).
  { rule: 'house/lazy-sdk', file: 'services/whatsapp/src/adapters/x.ts', code: "import { makeWASocket } from '@whiskeysockets/baileys';", fires: true },
  { rule: 'house/lazy-sdk', file: 'services/ai/src/adapters/x.ts', code: "import { Server } from '@modelcontextprotocol/sdk/server/index.js';", fires: true },
  { rule: 'house/lazy-sdk', file: 'packages/kit/src/x.ts', code: "export { runner } from 'node-pg-migrate';", fires: true },
  { rule: 'house/lazy-sdk', file: 'services/whatsapp/src/adapters/x.ts', code: "import type { WASocket } from '@whiskeysockets/baileys';", fires: false },
  { rule: 'house/lazy-sdk', file: 'services/whatsapp/src/adapters/cloud-api/x.ts', code: "import { Text } from 'whatsapp-api-js/messages';", fires: true },
  { rule: 'house/lazy-sdk', file: 'services/whatsapp/src/adapters/cloud-api/x.ts', code: "import type { ClientMessage } from 'whatsapp-api-js/types';", fires: false },
  { rule: 'house/lazy-sdk', file: 'services/ai/src/adapters/x.ts', code: "import { type ChatCompletionTool } from 'openai/resources/chat/completions';", fires: false },
  { rule: 'house/lazy-sdk', file: 'services/ai/src/adapters/x.ts', code: "export const load = () => import('openai');", fires: false },
  { rule: 'house/lazy-sdk', file: 'cli/src/x.ts', code: "import { runner } from 'node-pg-migrate';", fires: false },
  // The kit knows no service: a service registers what it owns at boot (its secret columns), never named in the kit.
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/secrets/x.ts', code: "export const c = { table: 'whatsapp.auth_state', column: 'value_enc' };", fires: true },
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/x.ts', code: "export const schema = (table: string) => `calendar.${table}`;", fires: true },
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/x.ts', code: "export const ports = new Map([['email', 3002]]);", fires: true },
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/x.ts', code: "export const load = () => import('@asistente/teams');", fires: true },
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/x.ts', code: "// e.g. `ai.provider_keys`\nexport const field = 'emails';", fires: false },
  { rule: 'house/kit-names-no-service', file: 'services/whatsapp/src/domain/x.ts', code: "export const table = 'whatsapp.auth_state';", fires: false },
  // Nor by an object key or an identifier (a table of ports), nor a setting named after a service or a provider (issue 41, item 4).
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/x.ts', code: 'export const SERVICE_PORTS = { auth: 3001, gateway: 3000 } as const;', fires: true },
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/x.ts', code: 'declare const PORTS: Record<string, number>;\nexport const port = PORTS.calendar;', fires: true },
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/x.ts', code: "import { Type } from '@sinclair/typebox';\nexport const s = Type.Object({ GOOGLE_CLIENT_ID: Type.Optional(Type.String()) });", fires: true },
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/x.ts', code: "export const url = (env: Record<string, string>) => env['CONTACTS_URL'];", fires: true },
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/x.ts', code: 'export const config = { WHATSAPP_WS_URL: undefined, MAIL_FROM: undefined };', fires: true },
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/x.ts', code: 'export const variable = (service: string) => `${service.toUpperCase()}_URL`;\nexport const PUBLIC_URL = 1;', fires: false },
  { rule: 'house/kit-names-no-service', file: 'packages/kit/src/x.ts', code: 'export const who = ({ email }: { email: string }, user: { email: string }) => ({ email, address: user.email });', fires: false },
  { rule: 'house/kit-names-no-service', file: 'services/email/src/settings.ts', code: 'export const s = { GOOGLE_CLIENT_ID: 1, emails: 2 };', fires: false },
  // Web features never import each other; they share through web/src/ui and web/src/lib.
  { rule: 'house/no-cross-feature', file: 'web/src/features/contacts/person/x.tsx', code: "import { a } from '../../teams/api';", fires: true },
  { rule: 'house/no-cross-feature', file: 'web/src/features/login/x.tsx', code: "import '../password-reset/style.css';", fires: true },
  { rule: 'house/no-cross-feature', file: 'web/src/features/contacts/person/x.tsx', code: "import { a } from '../api';", fires: false },
  { rule: 'house/no-cross-feature', file: 'web/src/features/contacts/x.tsx', code: "import { a } from '../../lib/http';", fires: false },
  // Only web/src/lib imports jotai and ky.
  { rule: 'no-restricted-imports', file: 'web/src/features/emails/x.ts', code: "import { atom } from 'jotai';", fires: true },
  { rule: 'no-restricted-imports', file: 'web/src/ui/x.tsx', code: "import { useAtomValue } from 'jotai/react';", fires: true },
  { rule: 'no-restricted-imports', file: 'web/src/app/x.ts', code: "import ky from 'ky';", fires: true },
  { rule: 'no-restricted-imports', file: 'web/src/lib/x.ts', code: "import ky from 'ky';", fires: false },
];

for (const { rule, file, code, fires } of cases) {
  t.test(`${rule} ${fires ? 'fires on' : 'allows'} ${file}: ${code}`, async (t) => {
    // Only the rule under test counts: an SDK import may break two rules at once (where it sits, and how it loads).
    const fired = (await rulesFiredOn(file, code)).filter((id) => id === rule || id.startsWith('fatal'));
    t.same(fired, fires ? [rule] : []);
  });
}
