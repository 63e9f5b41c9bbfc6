import { BlockList, isIPv6 } from 'node:net';

/** Where a reverse proxy in front can connect from: loopback and the private, unique-local and link-local ranges. */
const PRIVATE_PEERS = (() => {
  const list = new BlockList();
  for (const [net, bits] of [['127.0.0.0', 8], ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['169.254.0.0', 16]] as const)
    list.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of [['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) list.addSubnet(net, bits, 'ipv6');
  return list;
})();

/**
 * Fastify's trust function for `n` proxies in front (Fastify refuses a bare hop count: it cannot validate the
 * socket's peer). Hop 0 is the peer: trusted only from loopback or a private network, where a proxy in front
 * connects from, so a client that reaches the node directly from the internet cannot name its own address; hops
 * 1..n-1 are the entries the further proxies appended.
 */
function trustHops(n: number) {
  // The range check costs about a microsecond and request.ip is read several times a request; behind a proxy the
  // peer is almost always the same one, so the last answer is kept.
  let peer = '';
  let peerTrusted = false;
  return (address: string, hop: number) => {
    if (hop > 0) return hop < n;
    if (address !== peer) {
      peer = address;
      peerTrusted = PRIVATE_PEERS.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
    }
    return peerTrusted;
  };
}

/**
 * Fastify's `trustProxy` for TRUST_PROXY (config.ts `TrustProxy`): a hop count n means the socket's peer (from a
 * private network) and the n - 1 entries nearest to it are proxies; addresses, CIDRs and booleans as they are.
 */
export const trustProxyOption = (trustProxy: boolean | number | string) =>
  typeof trustProxy === 'number' ? trustHops(trustProxy) : trustProxy;

/** Said at start-up when TRUST_PROXY=true. */
export const TRUST_ANY_PROXY_WARNING =
  'TRUST_PROXY=true believes the left-most X-Forwarded-For entry, which a client can write itself: per-address rate limits can be dodged unless the proxy overwrites the header. Set TRUST_PROXY to the number of proxies in front (1 for one) or to their addresses.';
