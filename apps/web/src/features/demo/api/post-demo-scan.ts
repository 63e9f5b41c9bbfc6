import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /api/demo/scan/{demoId}, multipart field `scan` (JPEG): does the photo show the demo gift? */
export const DemoScanResponse = z.object({ success: z.literal(true), matched: z.boolean(), score: z.number() });
export type DemoScanResponse = z.infer<typeof DemoScanResponse>;

export const DEMO_SCAN_FAILED = 'Failed to process scan';

export function postDemoScan(demoId: string, scan: Blob, signal?: AbortSignal): Promise<DemoScanResponse> {
  const form = new FormData();
  form.append('scan', scan, 'scan.jpg');
  return apiRequest('POST', `/api/demo/scan/${encodeURIComponent(demoId)}`, form, {
    fallbackError: DEMO_SCAN_FAILED,
    schema: DemoScanResponse,
    signal,
  });
}
