import { DemoScanResponse, RECIPIENT_API, RM } from '@giftlens/contract/recipient';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /api/demo/scan/{demoId}, multipart field `scan` (JPEG): does the photo show the demo gift? */
export function postDemoScan(demoId: string, scan: Blob, signal?: AbortSignal): Promise<DemoScanResponse> {
  const form = new FormData();
  form.append('scan', scan, 'scan.jpg');
  return apiRequest('POST', RECIPIENT_API.demoScan(encodeURIComponent(demoId)), form, {
    fallbackError: RM.scanFailed,
    schema: DemoScanResponse,
    signal,
  });
}
