import { API } from '@giftlens/contract/routes';
import { beforeEach, describe, expect } from 'vitest';
import { bufferedStdout, LineBlocks } from '../src/lib/request-log.ts';
import { describeEachDatabase, it } from './helpers/harness.ts';

// The server's log lines, as pino writes them (one JSON object a line).
const lines: Record<string, unknown>[] = [];
const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };

describeEachDatabase(
  'one log line per request',
  (get) => {
    beforeEach(() => {
      lines.length = 0;
    });

    it('an answered request writes one info line with its id, method, URL, client, status and time', async () => {
      const res = await get().app.inject({ method: 'GET', url: `${API.plans}?country=IN` });
      expect(res.statusCode).toBe(200);
      expect(lines).toHaveLength(1);
      const [line] = lines;
      expect(line).toMatchObject({ level: 30, msg: 'request', method: 'GET', url: `${API.plans}?country=IN`, statusCode: 200 });
      expect(line?.reqId).toEqual(expect.any(String));
      expect(line?.remoteAddress).toBe('127.0.0.1');
      expect(line?.ms).toEqual(expect.any(Number));
      // Fastify's own pair of lines is gone
      expect(lines.map((l) => l.msg)).not.toContain('incoming request');
      expect(lines.map((l) => l.msg)).not.toContain('request completed');
    });

    it('a refused request is logged with its status, and a signed URL without its signature', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/media/gifts/x.jpg?exp=1&sig=0123abcd&v=2' });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ statusCode: res.statusCode, url: '/media/gifts/x.jpg?exp=1&sig=[redacted]&v=2' });
      expect(JSON.stringify(lines)).not.toContain('0123abcd');
    });

    it('each request has its own id', async () => {
      const h = get();
      await h.app.inject({ method: 'GET', url: API.plans });
      await h.app.inject({ method: 'GET', url: API.plans });
      expect(lines).toHaveLength(2);
      expect(lines[0]?.reqId).not.toBe(lines[1]?.reqId);
    });
  },
  { logger: { level: 'info', stream } },
);

describeEachDatabase(
  'no request lines below info',
  (get) => {
    it('at warn, an answered request writes nothing', async () => {
      lines.length = 0;
      await get().app.inject({ method: 'GET', url: API.plans });
      expect(lines).toEqual([]);
    });
  },
  { logger: { level: 'warn', stream } },
);

describe('log lines in blocks', () => {
  it('lines are kept as they are and written together once a block is full, the rest on flush', () => {
    const writes: string[] = [];
    const blocks = new LineBlocks({ write: (block: string) => void writes.push(block) }, 10);
    blocks.write('{"a":1}\n');
    expect(writes).toEqual([]);
    blocks.write('{"b":2}\n');
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n']);
    blocks.write('{"c":3}\n');
    blocks.flush();
    blocks.flush();
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n', '{"c":3}\n']);
  });

  it('standard output is one destination per process: a second app adds no timer or exit listener', () => {
    const first = bufferedStdout();
    const listeners = process.listenerCount('exit');
    expect(bufferedStdout()).toBe(first);
    expect(process.listenerCount('exit')).toBe(listeners);
  });
});
