import { expect, type APIResponse } from '@playwright/test';

/** A contract schema: anything that parses an unknown body into T (a zod schema from packages/contract). */
interface Schema<T> {
  parse(data: unknown): T;
}

/**
 * The answer is a success (2xx) and its body is what the contract says: parsed with the contract's own schema, so
 * a changed answer fails right here, naming the call and the body.
 */
export async function expectOk<T>(res: APIResponse, schema: Schema<T>): Promise<T> {
  expect(res.ok(), `${res.url()} → ${res.status()} ${await res.text()}`).toBe(true);
  return schema.parse(await res.json());
}
