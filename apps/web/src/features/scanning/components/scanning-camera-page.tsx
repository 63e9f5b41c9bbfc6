import { useEffect, useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { RECIPIENT_KEYS, readString, writeString } from '../../../lib/recipient-storage.ts';
import { useScanner, type ScanFlow } from '../hooks/use-scanner.ts';
import { ScannerView } from './scanner-view.tsx';

/**
 * /scanning-camera/{id}?type=direct|home — `type=direct` scans for the gift `id` (from a gift link); any other
 * type is the recipient flow, where `id` is the recipient id and the server matches among their gifts.
 */
export function ScanningCameraPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const type = params.get('type');
  const flow: ScanFlow = type === 'direct' ? 'direct' : 'recipient';
  const [storedRecipientId] = useState(() => readString('session', RECIPIENT_KEYS.recipientId));
  const scanId = flow === 'direct' ? id : id || storedRecipientId || '';

  useEffect(() => {
    writeString('session', RECIPIENT_KEYS.scanType, type ?? 'home');
    if (flow === 'recipient' && id) writeString('session', RECIPIENT_KEYS.recipientId, id);
  }, [flow, id, type]);

  if (!scanId) {
    if (flow === 'direct' || !storedRecipientId) return <Navigate to={paths.scan.href()} replace />;
    return <Navigate to={paths.scanningInstructions.href(storedRecipientId)} replace />;
  }
  return <ScannerScreen key={`${flow}:${scanId}`} flow={flow} scanId={scanId} />;
}

function ScannerScreen({ flow, scanId }: { flow: ScanFlow; scanId: string }) {
  return <ScannerView {...useScanner({ flow, scanId })} />;
}
