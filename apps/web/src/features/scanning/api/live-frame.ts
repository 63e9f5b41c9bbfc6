import { LiveFrameResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { apiRequest } from '../../../lib/api-client.ts';
import { scanCall, type ScanRequest } from './process-scan.ts';

/**
 * POST live-frame: one frame of live scanning, with the same fields as process-scan. A decisive frame answers as a
 * matching scan does; any other answers LiveFrameMiss. Refusals and 429/503 arrive as ApiError (code, Retry-After).
 */
export function sendLiveFrame(req: ScanRequest): Promise<LiveFrameResponse> {
  const { path, form } = scanCall(req, API.liveFrameDirect, API.liveFrame);
  return apiRequest('POST', path, form, { fallbackError: texts.recipient.scanFailed, schema: LiveFrameResponse, signal: req.signal });
}
