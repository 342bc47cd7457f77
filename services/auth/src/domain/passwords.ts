import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { HashingGate } from './hashing-gate.js';

const KEY_LENGTH = 32;
const R = 8;
const P = 1;

function derive(password: string, salt: Buffer, cost: number): Promise<Buffer> {
  const N = 2 ** cost;
  const options: ScryptOptions = { N, r: R, p: P, maxmem: 256 * N * R };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * scrypt per OWASP (N=2^17, r=8, p=1 by default). The cost is stored with the
 * hash so raising it later keeps old hashes verifiable.
 */
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  /** Without a gate (tools, tests) hashing is unbounded; the service always passes one. */
  constructor(
    private readonly cost: number,
    private readonly gate: HashingGate = new HashingGate(Number.MAX_SAFE_INTEGER, 0),
  ) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await this.gate.run(() => derive(password, salt, this.cost));
    return `scrypt$${this.cost}$${salt.toString('base64')}$${key.toString('base64')}`;
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, cost, salt, key] = stored.split('$');
    if (scheme !== 'scrypt' || !cost || !salt || !key) return false;
    const expected = Buffer.from(key, 'base64');
    const actual = await this.gate.run(() => derive(password, Buffer.from(salt, 'base64'), Number(cost)));
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  /** Spends the same work as a real check, so an unknown email answers as slowly as a wrong password. */
  async verifyNothing(password: string): Promise<false> {
    this.dummy ??= this.hash('contraseña-de-relleno');
    await this.verify(password, await this.dummy);
    return false;
  }
}
