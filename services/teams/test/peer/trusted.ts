import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { createPeerTls, inheritedPeerTls, type PeerTls } from './peer-tls.js';

const VARIABLE = 'TEAMS_GRAPH_PEER_CA';

/**
 * Node reads NODE_EXTRA_CA_CERTS only when it starts, and the Graph client's fetch trusts nothing else.
 * So a test file that talks to the HTTPS peer runs twice: the first run makes the certificate and spawns
 * the same file with the variable set (its TAP output becomes a subtest); the second run gets the
 * certificate back and runs the tests. Answers the certificate in the second run, undefined in the first.
 */
export async function trustedPeerTls(t: Test, moduleUrl: string): Promise<PeerTls | undefined> {
  const inherited = process.env[VARIABLE];
  if (inherited && process.env.NODE_EXTRA_CA_CERTS === inherited) return inheritedPeerTls(inherited);
  const tls = await createPeerTls();
  t.teardown(() => tls.dispose());
  t.spawn(process.execPath, [...process.execArgv, fileURLToPath(moduleUrl)], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: tls.caFile, [VARIABLE]: tls.caFile },
  }, 'con la CA del par de Graph');
  return undefined;
}
