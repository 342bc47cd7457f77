// Issue 21's figures, as the project's own tests print them: each trust test writes one TAP comment
// `# trust <key>: <figure>` per figure, and this module reads them back and says whether each holds.

/** What each figure must say to hold: a pattern over its text and a rule over the numbers it captured. */
const RULES = {
  'customer-runs': {
    issue: '21.1',
    what: "customer runs: other customers' fields reaching the model or the answer",
    pattern: /(\d+) customer runs, (\d+) hostile tool calls, (\d+) other/,
    holds: ([runs, calls, leaks]) => runs > 0 && calls > 0 && leaks === 0,
  },
  'owner-run': {
    issue: '21.1',
    what: "the owner's own run still finds every customer",
    pattern: /found (\d+) of (\d+) customers/,
    holds: ([found, all]) => all > 0 && found === all,
  },
  'private-hosts': {
    issue: '21.2',
    what: 'connections to private addresses over every spelling',
    pattern: /(\d+) spellings, (\d+) connections/,
    holds: ([spellings, connections]) => spellings >= 8 && connections === 0,
  },
  'mail-logins': {
    issue: '21.4',
    what: 'failed mail logins before a 429',
    pattern: /429 after (\d+) failed logins/,
    holds: ([failures]) => failures <= 11,
  },
  'mail-accounts': {
    issue: '21.5',
    what: 'one mail account over MAIL_MAX_ACCOUNTS',
    pattern: /account (\d+) answered (\d+)/,
    holds: ([, status]) => status === 409,
  },
  'big-mail': {
    issue: '21.5',
    what: 'opening a mail over MAIL_MAX_MESSAGE_BYTES',
    pattern: /opened ([\d.]+) MB mail in (\d+) ms, process grew (-?[\d.]+) MB/,
    holds: ([size, ms, grew]) => size >= 60 && ms < 5000 && grew < 100,
  },
  'oauth-browser': {
    issue: '21.6',
    what: 'OAuth callbacks from a browser that did not start the flow',
    pattern: /(\d+) callbacks from a browser that did not start the flow, (\d+) connections/,
    holds: ([callbacks, connections]) => callbacks > 0 && connections === 0,
  },
  'oauth-replay': {
    issue: '21.6',
    what: 'replayed OAuth states',
    pattern: /(\d+) replayed states, (\d+) connections/,
    holds: ([replays, connections]) => replays > 0 && connections === 0,
  },
  'log-secrets': {
    issue: '21.7',
    what: 'OAuth codes or states in the log of whole round trips',
    pattern: /(\d+) OAuth codes or states in the log/,
    holds: ([found]) => found === 0,
  },
  'raw-imports': {
    issue: '21.9',
    what: 'fuzzed raw CSV and vCard import bodies',
    pattern: /(\d+) fuzzed raw import bodies over (\d+) routes, (\d+) answers/,
    holds: ([bodies, , failing]) => bodies > 0 && failing === 0,
  },
};

/** Every `# trust <key>: <figure>` comment of a TAP text, the last one of each key. */
export function trustComments(tap) {
  const found = new Map();
  for (const match of tap.matchAll(/^\s*# trust ([\w-]+): (.*)$/gm)) found.set(match[1], match[2].trim());
  return found;
}

/**
 * One row per expected figure for a topology: `figure(issue, what, attempts, result, ok)` is the
 * reliability script's own row writer. A figure a test did not print counts as not holding.
 */
export function reportTrust(tap, topology, figure) {
  const found = trustComments(tap);
  for (const [key, rule] of Object.entries(RULES)) {
    const text = found.get(key);
    const numbers = text ? rule.pattern.exec(text)?.slice(1).map(Number) : undefined;
    const ok = numbers !== undefined && rule.holds(numbers);
    figure(rule.issue, `${rule.what} (${topology})`, numbers?.[0] ?? '?', text ?? 'not printed by the suite', ok);
  }
}
