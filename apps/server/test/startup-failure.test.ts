import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startupProblem } from '../src/lib/startup-failure.ts';

const postgres = { database: { kind: 'postgres', url: 'postgres://giftlens:secret@127.0.0.1:1/giftlens' }, port: 3000, host: '0.0.0.0' } as const;
const sqlite = { database: { kind: 'sqlite', file: '/tmp/x.sqlite' }, port: 3000, host: '0.0.0.0' } as const;

describe('start-up failures an operator can fix are one line', () => {
  it('a PostgreSQL that is not there: named by host, never by password', async () => {
    const client = new pg.Client({ connectionString: postgres.database.url });
    const err = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    const line = startupProblem(err, postgres, 'database');
    expect(line).toMatch(/^DATABASE_URL: PostgreSQL at 127\.0\.0\.1:1\/giftlens refused or could not be reached \(connect ECONNREFUSED/);
    expect(line).not.toContain('secret');
  });

  it('a port another process holds', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const err = await new Promise<unknown>((resolve) => {
        const second = createServer();
        second.once('error', resolve);
        second.listen(port, '127.0.0.1');
      });
      expect(startupProblem(err, { ...sqlite, port, host: '127.0.0.1' }, 'listen')).toBe(
        `PORT: ${port} on 127.0.0.1 is already in use by another process`,
      );
    } finally {
      holder.close();
    }
  });

  it('anything else keeps its stack: a bug is reported, not explained away', () => {
    expect(startupProblem(new TypeError('x is undefined'), postgres, 'database')).toBeNull();
    expect(startupProblem(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), sqlite, 'database')).toBeNull();
    expect(startupProblem(new Error('listen failed'), sqlite, 'listen')).toBeNull();
  });
});
