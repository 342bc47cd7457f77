import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../http/errors.js';
import { inAddressList, parseAddressList, type AddressRange } from './address-list.js';

/** What a name resolves to, every answer (dns.lookup with `all: true`). */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const HOST_NOT_ALLOWED_MESSAGE = 'Ese servidor apunta a una dirección interna y no está permitido';

/** The host a user typed resolves to an address of this network (or a special one) that the operator did not allow. */
export class HostNotAllowedError extends AppError {
  constructor(readonly host: string) {
    super(400, 'HOST_NOT_ALLOWED', HOST_NOT_ALLOWED_MESSAGE);
    this.name = 'HostNotAllowedError';
  }
}

/** A host a user typed, resolved once and checked: connect to `address`, never to the name again. */
export interface CheckedHost {
  /** The name as typed (brackets of an IPv6 literal removed): what messages show. */
  readonly host: string;
  /** The answer that was checked. */
  readonly address: string;
  /** The name TLS verifies the certificate against (and sends as SNI); undefined when an address was typed. */
  readonly servername: string | undefined;
  /** Only addresses in ALLOWED_PRIVATE_ADDRESSES may be spoken to without TLS. */
  readonly plaintextAllowed: boolean;
}

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * The one gate for every connection to a host a user typed (mail servers now; CalDAV, webhooks next):
 * resolve once, refuse loopback, private, shared (CGNAT), link-local (cloud metadata), multicast,
 * unspecified, broadcast, reserved and IPv4-in-IPv6 addresses however they were spelt (the check runs on
 * the resolver's answers, so `2130706433`, `0x7f000001`, `127.1` or `::ffff:7f00:1` are all 127.0.0.1),
 * unless the operator listed them in ALLOWED_PRIVATE_ADDRESSES; then hand back the checked address, so
 * a second DNS answer cannot send the connection elsewhere.
 */
export class HostGuard {
  private readonly allowed: AddressRange[];

  constructor(
    allowedPrivateAddresses = '',
    private readonly resolve: Resolver = systemResolver,
  ) {
    this.allowed = parseAddressList(allowedPrivateAddresses);
  }

  /** Throws HostNotAllowedError, or the resolver's own error (ENOTFOUND…) when the name does not resolve. */
  async check(typed: string): Promise<CheckedHost> {
    const host = typed.trim().replace(/^\[(.*)\]$/, '$1');
    const answers = await this.resolve(host);
    if (answers.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
    let plaintextAllowed = true;
    for (const answer of answers) {
      const address = parse(answer.address);
      if (!address) throw new HostNotAllowedError(host);
      const listed = inAddressList(address, this.allowed);
      if (!listed && !isPublic(address)) throw new HostNotAllowedError(host);
      plaintextAllowed &&= listed;
    }
    const name = host.replace(/\.$/, '');
    return {
      host,
      address: answers[0]!.address,
      servername: isIP(host) !== 0 || ipaddr.isValid(name) ? undefined : name,
      plaintextAllowed,
    };
  }
}

/** An answer the parser cannot read is refused like a private one (fail closed). */
function parse(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  try {
    return ipaddr.process(text);
  } catch {
    return undefined;
  }
}

/**
 * Ordinary internet addresses only: ipaddr.js names every special range, and anything it does not call
 * `unicast` is refused. IPv6 `unicast` still holds the deprecated IPv4-compatible block (::/96, e.g.
 * `::7f00:1`); NAT64 addresses (64:ff9b::/96) are judged by the IPv4 address they carry.
 */
function isPublic(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  if (v6.range() === 'rfc6052') return isPublic(ipaddr.fromByteArray(v6.toByteArray().slice(12)));
  if (v6.parts.slice(0, 6).every((part) => part === 0)) return false;
  return v6.range() === 'unicast';
}
