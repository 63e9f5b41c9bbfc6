import { LIVE_SCAN_SESSION_FIELD, ScanResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { apiRequest, ApiError } from '../../../lib/api-client.ts';

export type ScanRequest = (
  | { flow: 'direct'; giftId: string; image: File; signal: AbortSignal }
  | { flow: 'recipient'; recipientId: string; image: File; signal: AbortSignal }
) & {
  /** live frames only: the scanning session, within which the server may pool frames (decision 047) */
  session?: string;
};

/**
 * The multipart body of a scan call and its path: the direct flow names the gift in the path (`direct(giftId)`)
 * and sends `type=direct`; the recipient flow posts to `recipientPath` with `recipient_id`.
 */
export function scanCall(req: ScanRequest, direct: (giftId: string) => string, recipientPath: string) {
  const form = new FormData();
  form.append('scan', req.image, req.image.name);
  if (req.session) form.append(LIVE_SCAN_SESSION_FIELD, req.session);
  if (req.flow === 'direct') {
    form.append('type', 'direct');
    return { path: direct(req.giftId), form };
  }
  form.append('recipient_id', req.recipientId);
  return { path: recipientPath, form };
}

/**
 * POST process-scan: the direct flow names the gift in the path (`type=direct`); the recipient flow sends
 * `recipient_id` and the server matches against that recipient's active gifts.
 * A non-OK answer carries the server's text when it has one, else "API error: {status}".
 */
export async function processScan(req: ScanRequest): Promise<ScanResponse> {
  const { path, form } = scanCall(req, API.processScanDirect, API.processScan);
  try {
    return await apiRequest('POST', path, form, { fallbackError: texts.recipient.scanFailed, schema: ScanResponse, signal: req.signal });
  } catch (err) {
    if (err instanceof ApiError && err.status > 0 && err.code === `http_${err.status}` && err.message === texts.recipient.scanFailed) {
      throw new ApiError(texts.recipient.apiError(err.status), err.status, err.code, err.retryAfter);
    }
    throw err;
  }
}
