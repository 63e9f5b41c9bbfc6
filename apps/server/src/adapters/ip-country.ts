import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { Reader, type Response } from 'maxmind';

/** The embedded IP-to-country table (decision 040): answers a two-letter country for an address, or null. */
export interface IpCountry {
  lookup(ip: string): string | null;
}

/** ip-location-db's record: the country alone (not MaxMind's `country.iso_code` layout). */
interface CountryRecord {
  country_code?: string;
}

/** One file, IPv4 and IPv6 together: RIR whois, ASN and geofeed data merged by ip-location-db (CC0 / NRO CC BY 4.0). */
const EMBEDDED_DB = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

/**
 * Addresses that belong to no country (RFC 6890's special-purpose blocks: private, loopback, link-local, shared,
 * documentation, benchmarking, multicast, reserved). The table must not be asked: the published data places
 * some of them in a country (192.168.0.0/16 answered AU, 203.0.113.0/24 AU), decision 040.
 */
const NO_COUNTRY = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NO_COUNTRY.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) NO_COUNTRY.addSubnet(net, bits, 'ipv6');

/** The address as the table and the block list read it: an IPv4-mapped IPv6 address ("::ffff:1.2.3.4") as IPv4. */
function plainAddress(ip: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const address = mapped ?? ip;
  if (isIPv4(address)) return { address, family: 'ipv4' };
  if (isIPv6(address)) return { address, family: 'ipv6' };
  return null;
}

/** A reader over an MMDB file whose records carry `country_code` (the ip-location-db layout). */
export function openIpCountry(file: string): IpCountry {
  const reader = new Reader<Response>(readFileSync(file));
  return {
    lookup(ip) {
      const plain = plainAddress(ip);
      if (!plain || NO_COUNTRY.check(plain.address, plain.family)) return null;
      let code: string | undefined;
      try {
        code = (reader.get(plain.address) as CountryRecord | null)?.country_code;
      } catch {
        // An address maxmind cannot read: no country.
        return null;
      }
      return code && /^[A-Z]{2}$/.test(code) ? code : null;
    },
  };
}

let embedded: IpCountry | null = null;

/**
 * The table shipped in node_modules, read on first use (about 10 ms and 8 MB of memory), so a worker or a process
 * that is never asked pays nothing. No network: the file is part of the install.
 */
export function embeddedIpCountry(): IpCountry {
  embedded ??= openIpCountry(createRequire(import.meta.url).resolve(EMBEDDED_DB));
  return embedded;
}
