import { API } from '@giftlens/contract/routes';
import { expect } from 'vitest';
import { describeEachDatabase, it, json } from './helpers/harness.ts';

/** Every path in the contract's two route maps, in OpenAPI form ("/api/x/{giftId}"). */
function contractPaths(): string[] {
  const paths = new Set<string>();
  for (const map of [API, API] as Record<string, string | ((id: string) => string)>[]) {
    for (const [name, value] of Object.entries(map)) {
      const path = typeof value === 'string' ? value : value(`:${name === 'demoScan' ? 'demoId' : name === 'recipient' ? 'recipientId' : name === 'scheduledMessage' ? 'id' : 'giftId'}`);
      paths.add(path.replace(/:([A-Za-z]+)/g, '{$1}'));
    }
  }
  return [...paths];
}

describeEachDatabase('API reference', (get) => {
  it('serves an OpenAPI 3 document listing every /api route, with the contract’s request schemas', async () => {
    const h = get();
    const res = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = json<{ openapi: string; paths: Record<string, Record<string, { requestBody?: unknown; parameters?: unknown[] }>> }>(res);
    expect(doc.openapi).toMatch(/^3\./);
    const documented = Object.keys(doc.paths);
    for (const path of [...contractPaths(), '/api/uploads/{token}', '/api/health', '/api/health/ready', '/api/health/live']) expect(documented, path).toContain(path);
    expect(documented.filter((p) => !p.startsWith('/api/'))).toEqual([]);
    expect(documented.filter((p) => p.startsWith('/api/docs'))).toEqual([]);

    // Request schemas come from the contract: the schedule call's body names its fields.
    const schedule = JSON.stringify(doc.paths['/api/scheduled-messages']?.post?.requestBody);
    for (const field of ['giftId', 'recipientContact', 'contactType', 'scheduledDatetime', 'timezone']) expect(schedule).toContain(field);
    expect(JSON.stringify(doc.paths['/api/verification-recipient/verify-gift/{giftId}']?.get?.parameters)).toContain('giftId');
  });

  it('renders a browsable reference', async () => {
    const h = get();
    const res = await h.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/swagger/i);
  });
});
