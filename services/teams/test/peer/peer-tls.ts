import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface PeerTls {
  key: string;
  cert: string;
  /** A PEM file holding the certificate, for NODE_EXTRA_CA_CERTS of a process that must trust the peer. */
  caFile: string;
  dispose(): void;
}

/** A fresh self-signed certificate (its own CA) for 127.0.0.1 and localhost, written to a temporary folder. */
export async function createPeerTls(): Promise<PeerTls> {
  const pems = await generate([{ name: 'commonName', value: 'graph-peer.test' }], {
    keyType: 'ec',
    curve: 'P-256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'graph-peer-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, pems.cert);
  writeFileSync(join(dir, 'key.pem'), pems.private, { mode: 0o600 });
  return { key: pems.private, cert: pems.cert, caFile, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The certificate a parent process created and handed down (see `trustedPeerTls`). */
export function inheritedPeerTls(caFile: string): PeerTls {
  const dir = join(caFile, '..');
  return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(caFile, 'utf8'), caFile, dispose: () => {} };
}
