import { DemoScanResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /api/demo/scan/{demoId}, multipart field `scan` (JPEG): does the photo show the demo gift? */
export function postDemoScan(demoId: string, scan: Blob, signal?: AbortSignal): Promise<DemoScanResponse> {
  const form = new FormData();
  form.append('scan', scan, 'scan.jpg');
  return apiRequest('POST', API.demoScan(encodeURIComponent(demoId)), form, {
    fallbackError: texts.recipient.scanFailed,
    schema: DemoScanResponse,
    signal,
  });
}
