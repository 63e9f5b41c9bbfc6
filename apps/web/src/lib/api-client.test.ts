import { texts } from '@giftlens/contract/texts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { ApiError, apiRequest } from './api-client.ts';

const Ok = z.object({ success: z.literal(true) });

function answer(status: number, body: string, contentType = 'application/json') {
  vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response(body, { status, headers: { 'content-type': contentType } }))));
}

async function failure(fallbackError: string): Promise<ApiError> {
  try {
    await apiRequest('POST', '/api/anything', { a: 1 }, { fallbackError, schema: Ok });
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw new Error(`not an ApiError: ${String(err)}`);
  }
  throw new Error('the call did not fail');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the API client’s error texts', () => {
  it('shows the server’s text when it is one of the contract’s', async () => {
    answer(400, JSON.stringify({ success: false, error: texts.sender.invalidCode, code: 'invalid_code' }));
    const err = await failure(texts.sender.generic);
    expect(err.message).toBe(texts.sender.invalidCode);
    expect(err.code).toBe('invalid_code');
    expect(err.status).toBe(400);
  });

  it('shows a worded template of the contract, filled in by the server', async () => {
    const text = texts.sender.fileTooLarge('Premium plan', '30MB', '31.20');
    answer(413, JSON.stringify({ success: false, error: text, code: 'file_too_large' }));
    expect((await failure(texts.sender.uploadUrlFailed)).message).toBe(text);
  });

  it('never shows a schema’s developer wording: the call’s fallback instead', async () => {
    answer(
      400,
      JSON.stringify({ success: false, error: 'Too big: expected string to have <=80 characters', code: 'recipient_name_required' }),
    );
    const err = await failure(texts.sender.createGiftFailed);
    expect(err.message).toBe(texts.sender.createGiftFailed);
    expect(err.code).toBe('recipient_name_required');
  });

  it('never shows a framework’s or a proxy’s error body', async () => {
    answer(404, JSON.stringify({ message: 'Route POST:/api/anything not found', error: 'Not Found', statusCode: 404 }));
    expect((await failure(texts.sender.generic)).message).toBe(texts.sender.generic);
    answer(502, '<html><body>Bad Gateway</body></html>', 'text/html');
    expect((await failure(texts.sender.generic)).message).toBe(texts.sender.generic);
    answer(500, 'null');
    expect((await failure(texts.sender.generic)).message).toBe(texts.sender.generic);
  });

  it('an answer that is not JSON where JSON was expected is the fallback, not the parser’s text', async () => {
    answer(200, '<!doctype html><html></html>', 'text/html');
    const err = await failure(texts.sender.sendCodeFailed);
    expect(err.message).toBe(texts.sender.sendCodeFailed);
    expect(err.code).toBe('bad_response');
  });

  it('a network failure is the fallback', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    const err = await failure(texts.sender.saveUserFailed);
    expect(err.message).toBe(texts.sender.saveUserFailed);
    expect(err.code).toBe('network_error');
  });

  it('takes Retry-After from the body, else from the header (a 503 from a proxy in front of the matcher)', async () => {
    answer(503, JSON.stringify({ success: false, error: texts.recipient.scanBusy, code: 'scan_busy', retryAfter: 2 }));
    expect((await failure(texts.recipient.scanFailed)).retryAfter).toBe(2);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('busy', { status: 503, headers: { 'retry-after': '3', 'content-type': 'text/plain' } }))),
    );
    const err = await failure(texts.recipient.scanFailed);
    expect([err.status, err.retryAfter, err.message]).toEqual([503, 3, texts.recipient.scanFailed]);
    answer(503, 'busy', 'text/plain');
    expect((await failure(texts.recipient.scanFailed)).retryAfter).toBeUndefined();
  });
});
