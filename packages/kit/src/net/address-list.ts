import ipaddr from 'ipaddr.js';

export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * `ALLOWED_PRIVATE_ADDRESSES` as Mastodon reads it: comma-separated addresses or CIDR ranges
 * (`127.0.0.1,192.168.1.0/24,fd00::/8`). An IPv4-mapped IPv6 entry counts as its IPv4 address, so the
 * list means the same whichever way a resolver spells an answer. Throws on the first entry it cannot read.
 */
export function parseAddressList(text: string): AddressRange[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      try {
        if (!entry.includes('/')) {
          const address = ipaddr.process(entry);
          return [address, address.kind() === 'ipv4' ? 32 : 128] satisfies AddressRange;
        }
        const [address, bits] = ipaddr.parseCIDR(entry);
        if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
          return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96] satisfies AddressRange;
        }
        return [address, bits] satisfies AddressRange;
      } catch {
        throw new Error(`"${entry}" is not an IP address or CIDR range`);
      }
    });
}

/** Whether `address` (already through ipaddr.process) lies in one of `ranges`. */
export function inAddressList(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: readonly AddressRange[]): boolean {
  return ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
}
