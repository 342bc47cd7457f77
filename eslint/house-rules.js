// The house's import boundaries as ESLint rules (ARCHITECTURE.md, "Rules that keep the house readable").
// Written here rather than taken from a plugin because each rule needs the import resolved against the
// importing file (a relative path is only "into another service" once resolved), which
// `no-restricted-imports` patterns cannot express. Package bans (drivers, jotai, ky) stay with
// `no-restricted-imports` in eslint.config.js.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Workspace package name → its folder relative to the root, e.g. `@asistente/email` → `services/email`. */
function workspacePackages() {
  const byName = new Map();
  for (const group of ['packages', 'services']) {
    for (const entry of readdirSync(path.join(root, group), { withFileTypes: true })) {
      if (entry.isDirectory()) addPackage(byName, `${group}/${entry.name}`);
    }
  }
  for (const single of ['gateway', 'cli', 'web']) addPackage(byName, single);
  return byName;
}

function addPackage(byName, folder) {
  try {
    const { name } = JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8'));
    if (typeof name === 'string') byName.set(name, folder);
  } catch {
    // A folder without a package.json is not a workspace.
  }
}

const packages = workspacePackages();

/** Where an import points, as a root-relative posix path, or undefined for a third-party package. */
function target(fromFile, source) {
  if (source.startsWith('.')) {
    return toRootPath(path.resolve(path.dirname(fromFile), source));
  }
  const match = /^(@asistente\/[^/]+)(\/.*)?$/.exec(source);
  const folder = match && packages.get(match[1]);
  if (!folder) return undefined;
  // The bare name is the package's entry point; a subpath is a reach into its files.
  return match[2] ? `${folder}/${match[2].slice(1)}` : `${folder}/#entry`;
}

function toRootPath(absolute) {
  return path.relative(root, absolute).split(path.sep).join('/');
}

/** Calls `check(source, node)` for every static import, re-export and literal dynamic import. */
function importVisitor(context, check) {
  const visit = (node) => {
    if (node.source && node.source.type === 'Literal' && typeof node.source.value === 'string') {
      check(node.source.value, node.source);
    }
  };
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression: visit,
  };
}

function rule(description, message, decide) {
  return {
    meta: { type: 'problem', docs: { description }, messages: { boundary: message }, schema: [] },
    create(context) {
      const file = toRootPath(context.filename);
      return importVisitor(context, (source, node) => {
        const to = target(context.filename, source);
        if (to === undefined) return;
        const data = decide(file, to, source);
        if (data) context.report({ node, messageId: 'boundary', data: { source, ...data } });
      });
    },
  };
}

/**
 * SDKs a feature needs only once it is configured or first used (issue 37: the one-process install carried
 * ~150 MB of them from boot). They are loaded where they are used (a dynamic import, or createRequire where
 * the caller must stay synchronous), so a process that never uses the feature never holds them; a static
 * import here would load them at boot again. Type imports cost nothing and stay allowed.
 */
const LAZY_PACKAGES = [
  '@whiskeysockets/baileys',
  '@modelcontextprotocol/sdk',
  'openai',
  'imapflow',
  'nodemailer',
  'mailparser',
  'sanitize-html',
  'google-auth-library',
  '@googleapis/calendar',
  '@opentelemetry/sdk-node',
  '@fastify/otel',
  '@opentelemetry/instrumentation-undici',
  'archiver',
  'qrcode',
  'node-pg-migrate',
  'whatsapp-api-js',
];

const lazyPackageOf = (source) => LAZY_PACKAGES.find((name) => source === name || source.startsWith(`${name}/`));

/** A static import or re-export that brings values (not only types) from a lazily loaded SDK. */
const lazySdkRule = {
  meta: {
    type: 'problem',
    docs: { description: 'SDKs used only once a feature is configured are loaded when first used, not at boot' },
    messages: {
      lazy: "'{{source}}' is loaded when first used (issue 37): import it with `await import('{{source}}')` where it is needed (or createRequire for a synchronous caller); `import type` is fine",
    },
    schema: [],
  },
  create(context) {
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !lazyPackageOf(source)) return;
      if (node.importKind === 'type' || node.exportKind === 'type') return;
      if (node.type === 'ImportDeclaration' && node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type')) return;
      context.report({ node: node.source, messageId: 'lazy', data: { source } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

const serviceOf = (file) => /^services\/([^/]+)(\/|$)/.exec(file)?.[1];

/** The services, by their folders: what the kit may not name. */
const SERVICES = readdirSync(path.join(root, 'services'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** A string that names a service: its name, its package, or a name in its schema (`whatsapp.auth_state`). */
const NAMES_A_SERVICE = new RegExp(`^(@asistente/)?(${SERVICES.join('|')})(\\.[\\w.]*)?$`);
/**
 * Outside providers a service speaks to: their settings (`GOOGLE_CLIENT_ID`, `OPENAI_BASE_URL`) are the
 * service's, declared in its settings.ts, never the kit's.
 */
const PROVIDERS = ['google', 'microsoft', 'gmail', 'outlook', 'openai', 'meta', 'caldav', 'baileys'];
/** A setting named after a service or a provider: `CONTACTS_URL`, `WHATSAPP_WS_URL`, `GOOGLE_API_URL`. */
const NAMES_A_SETTING = new RegExp(`^(${[...SERVICES, ...PROVIDERS].map((name) => name.toUpperCase()).join('|')})_[A-Z0-9_]*$`);

/**
 * The kit serves every service and knows none (issue 41): what a service owns (its secret columns, tables,
 * settings, port) is registered by the service at boot, never written in the kit. Its imports are already
 * kept out by no-cross-service; this catches a service named in a string, an identifier or an object key
 * (`{ auth: 3001 }`, `ports.email`), and a setting named after a service or a provider.
 */
const kitNamesNoServiceRule = {
  meta: {
    type: 'problem',
    docs: { description: 'packages/kit names no service in its code' },
    messages: {
      named: "'{{value}}' names the service '{{service}}': the kit knows no service; let the service register what it owns at boot",
      setting: "'{{value}}' is a setting of a service or a provider: declare it in the service's settings.ts and read it with platform.settings()",
    },
    schema: [],
  },
  create(context) {
    const named = (node, value) => {
      const match = typeof value === 'string' ? NAMES_A_SERVICE.exec(value) : null;
      if (match) context.report({ node, messageId: 'named', data: { value, service: match[2] } });
      return match !== null;
    };
    const setting = (node, value) => {
      if (typeof value === 'string' && NAMES_A_SETTING.test(value)) context.report({ node, messageId: 'setting', data: { value } });
    };
    const check = (node, value) => named(node, value) || setting(node, value);
    return {
      Literal: (node) => check(node, node.value),
      TemplateElement: (node) => check(node, node.value.cooked),
      // Any identifier may be a setting; a lowercase one names a service as a key of a table (`{ auth: 3001 }`)
      // or read from a constant's (`SERVICE_PORTS.auth`), while `email` as a person's field stays free.
      Identifier: (node) => setting(node, node.name),
      Property: (node) => {
        if (node.parent.type === 'ObjectExpression' && !node.computed && !node.shorthand && node.key.type === 'Identifier') named(node.key, node.key.name);
      },
      MemberExpression: (node) => {
        if (!node.computed && node.object.type === 'Identifier' && /^[A-Z][A-Z0-9_]*$/.test(node.object.name)) named(node.property, node.property.name);
      },
    };
  },
};
const featureOf = (file) => /^web\/src\/features\/([^/]+)(\/|$)/.exec(file)?.[1];

export const houseRules = {
  meta: { name: 'house-rules' },
  rules: {
    // Services talk over HTTP and events; a sibling's code is never linked in. The gateway and the CLI
    // mount services, so they may import a service's entry point (its plugin) and nothing deeper.
    'no-cross-service': rule(
      'services never import each other; the gateway and CLI import only a service entry point',
      "'{{source}}': {{why}}",
      (file, to) => {
        const toService = serviceOf(to);
        if (!toService) return undefined;
        const fromService = serviceOf(file);
        if (fromService) {
          return fromService === toService ? undefined : { why: `service '${fromService}' may not import service '${toService}' (use HTTP or events)` };
        }
        if (/^(gateway|cli)\//.test(file) && to.endsWith('/#entry')) return undefined;
        return { why: `only a service's entry point (@asistente/${toService}) may be imported from outside it` };
      },
    ),
    // Rules depend on ports they declare; adapters implement them and app.ts wires the two.
    'domain-no-adapters': rule(
      'a service domain never imports its adapters',
      "'{{source}}': src/domain may not import src/adapters; declare a port in the domain and implement it in the adapter",
      (file, to) => {
        const from = /^services\/([^/]+)\/src\/domain\//.exec(file);
        if (!from) return undefined;
        return new RegExp(`^services/${from[1]}/src/adapters(/|$)`).test(to) ? {} : undefined;
      },
    ),
    // A feature shared by two screens belongs in src/ui or src/lib.
    'no-cross-feature': rule(
      'web features never import each other',
      "'{{source}}': feature '{{from}}' may not import feature '{{to}}'; move the shared piece to web/src/ui or web/src/lib",
      (file, to) => {
        const from = featureOf(file);
        const into = featureOf(to);
        return from && into && from !== into ? { from, to: into } : undefined;
      },
    ),
    'lazy-sdk': lazySdkRule,
    'kit-names-no-service': kitNamesNoServiceRule,
  },
};

// Only packages/kit talks to the database and the bus; everyone else goes through its helpers.
const driverBan = {
  paths: ['postgres', 'pg', 'nats'].map((name) => ({
    name,
    message: 'Only packages/kit imports the database and NATS drivers; use its helpers (db, outbox, bus).',
  })),
  patterns: [
    {
      group: ['@electric-sql/*', '@nats-io/*'],
      message: 'Only packages/kit imports the database and NATS drivers; use its helpers (db, outbox, bus).',
    },
  ],
};

// The web app keeps state (jotai) and HTTP (ky) behind src/lib so features share one client and one 401 rule.
const webLibBan = {
  paths: ['jotai', 'ky'].map((name) => ({
    name,
    message: 'Only web/src/lib imports jotai and ky; add or use a helper there.',
  })),
  patterns: [
    { group: ['jotai/*', 'ky/*'], message: 'Only web/src/lib imports jotai and ky; add or use a helper there.' },
  ],
};

// Provider SDKs (the outside world's clients and their types) stay in a service's src/adapters, behind a port
// the domain declares. Format libraries (mailparser, ical.js, archiver) are not providers and may be used anywhere.
const providerSdkBan = {
  paths: ['imapflow', 'nodemailer', 'openai', 'google-auth-library', 'tsdav'].map((name) => ({
    name,
    message: 'Provider SDKs are used only in src/adapters: declare a port in the domain and implement it there.',
  })),
  patterns: [
    {
      group: ['nodemailer/*', 'openai/*', '@microsoft/microsoft-graph-*', '@googleapis/*', '@whiskeysockets/baileys', '@whiskeysockets/baileys/*'],
      message: 'Provider SDKs are used only in src/adapters: declare a port in the domain and implement it there.',
    },
  ],
};

/** Production source the boundaries apply to; tests and benchmarks are harnesses and may reach further. */
const sources = ['packages/*/src/**', 'services/*/src/**', 'gateway/src/**', 'cli/src/**', 'web/src/**'];
const withExtensions = (globs) => globs.map((glob) => `${glob}/*.{ts,tsx,js,jsx,mts,cts,mjs,cjs}`);

/** Flat-config blocks with only the house's boundary rules (eslint.config.js spreads them; the test runs them alone). */
export const houseBoundaries = [
  {
    files: withExtensions(sources),
    plugins: { house: houseRules },
    rules: {
      'house/no-cross-service': 'error',
      'house/domain-no-adapters': 'error',
      'house/no-cross-feature': 'error',
    },
  },
  {
    // The processes that serve: the CLI is a short command, and the web app is bundled.
    files: withExtensions(['packages/*/src/**', 'services/*/src/**', 'gateway/src/**']),
    plugins: { house: houseRules },
    rules: { 'house/lazy-sdk': 'error' },
  },
  {
    files: withExtensions(['packages/kit/src/**']),
    plugins: { house: houseRules },
    rules: { 'house/kit-names-no-service': 'error' },
  },
  {
    files: withExtensions(sources),
    ignores: ['packages/kit/**', 'web/**'],
    rules: { 'no-restricted-imports': ['error', driverBan] },
  },
  {
    // A later block replaces the rule's options, so these files carry both bans.
    files: withExtensions(['services/*/src/**']),
    ignores: ['services/*/src/adapters/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...driverBan.paths, ...providerSdkBan.paths], patterns: [...driverBan.patterns, ...providerSdkBan.patterns] }],
    },
  },
  {
    // A later block replaces the rule's options, so web files carry both bans.
    files: withExtensions(['web/src/**']),
    ignores: ['web/src/lib/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...driverBan.paths, ...webLibBan.paths], patterns: [...driverBan.patterns, ...webLibBan.patterns] }],
    },
  },
];
