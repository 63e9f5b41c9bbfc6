import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The one guard for a URL the server itself will call on someone's word (a push subscription's endpoint, a
 * merchant's webhook): https only, no credentials in it, and never an address inside our own network (loopback,
 * private, link-local, unique-local, CGNAT, unspecified), so a stored URL cannot aim the server at itself or its
 * neighbours. `allowHttpHosts` (WEBHOOK_ALLOW_HTTP_HOSTS, tests) names hosts that may use plain http and any address.
 */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) INTERNAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) INTERNAL.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is one of ours (loopback, private, link-local…); IPv4-mapped IPv6 is read as IPv4. */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return INTERNAL.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return false;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * The URL when the server may call it (checked without a DNS lookup), else null. `namedHosts`: hosts an operator
 * named (PUSH_SERVICE_HOSTS) may be internal, still over https.
 */
export function outboundUrl(raw: string, allowHttpHosts: readonly string[] = [], namedHosts: readonly string[] = []): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  const host = bare(url.hostname);
  const allowed = allowHttpHosts.includes(host);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowed)) return null;
  if (allowed || namedHosts.includes(host)) return url;
  if (host === 'localhost' || host.endsWith('.localhost') || isInternalAddress(host)) return null;
  return url;
}

/**
 * Just before a call: the URL again, and every address its host resolves to must be public (a name that resolves to
 * 127.0.0.1 is refused here, where the check above cannot see it). Answers why not, or null when the call may go.
 * What remains is a name whose answer changes between this lookup and the connection (DNS rebinding).
 */
export async function outboundRefusal(raw: string, allowHttpHosts: readonly string[] = []): Promise<string | null> {
  const url = outboundUrl(raw, allowHttpHosts);
  if (!url) return 'the URL is not https, has credentials, or names an internal address';
  const host = bare(url.hostname);
  if (allowHttpHosts.includes(host) || isIP(host) !== 0) return null;
  const addresses = await lookup(host, { all: true, verbatim: true });
  const internal = addresses.find((a) => isInternalAddress(a.address));
  return internal ? `${host} resolves to an internal address (${internal.address})` : null;
}
