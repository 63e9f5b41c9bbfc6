import type { FastifyInstance } from 'fastify';
import { type AddressInfo, createServer } from 'node:net';

/** This machine has no IPv6 loopback (IPv6 turned off): `localhost` is then 127.0.0.1 alone. */
const NO_IPV6 = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT']);

export interface Listening {
  /** Every address:port connections are taken on. */
  addresses: string[];
  /** Stops taking connections on the listeners Fastify does not own (::1); Fastify's close does the rest. */
  close(): void;
}

const formatted = (a: AddressInfo | string) =>
  typeof a === 'string' ? a : a.family === 'IPv6' ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`;
const errorCode = (err: unknown) => String((err as NodeJS.ErrnoException | null)?.code ?? '');

/**
 * Starts taking connections on `host`. `localhost` is both loopback addresses, 127.0.0.1 and ::1, bound one by
 * one: Fastify's own `localhost` binds what the name resolves to, and where the hosts file maps it to 127.0.0.1
 * alone (Debian images, containers) nothing answered on ::1, where browsers try first. The ::1 listener hands each
 * connection to the one HTTP server (its `connection` event), so timeouts, the answer to a malformed request and
 * closing are the same on both. A ::1 port taken by another program fails start-up (EADDRINUSE): a browser asking
 * for localhost would reach that program.
 */
export async function listen(
  app: FastifyInstance,
  opts: { host: string; port: number; warn: (line: string) => void },
): Promise<Listening> {
  if (opts.host !== 'localhost') {
    await app.listen({ host: opts.host, port: opts.port });
    return { addresses: app.addresses().map(formatted), close: () => undefined };
  }
  await app.listen({ host: '127.0.0.1', port: opts.port });
  const { port } = app.server.address() as AddressInfo;
  const ipv6 = createServer((socket) => app.server.emit('connection', socket));
  try {
    await new Promise<void>((resolve, reject) => {
      ipv6.once('error', reject);
      ipv6.listen({ host: '::1', port, ipv6Only: true }, () => {
        ipv6.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    if (!NO_IPV6.has(errorCode(err))) throw err;
    opts.warn(`HOST: localhost is 127.0.0.1 only here: this machine has no IPv6 loopback (${errorCode(err)})`);
    return { addresses: app.addresses().map(formatted), close: () => undefined };
  }
  const close = () => {
    if (ipv6.listening) ipv6.close();
  };
  app.server.once('close', close);
  return { addresses: [...app.addresses().map(formatted), formatted(ipv6.address() as AddressInfo)], close };
}
