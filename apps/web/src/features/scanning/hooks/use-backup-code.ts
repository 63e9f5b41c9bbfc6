import { BACKUP_CODE } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { useOpenWithCode } from '../api/open-with-code.ts';
import { revealedPath } from '../lib/store-reveal.ts';
import type { ScanFlow } from './use-scanner.ts';

/** Only digits, spaces and dashes are kept as typed; the code is its digits. */
const digitsOf = (typed: string) => typed.replace(/\D/g, '');

/** The backup-code form's state: what is typed, the refusal to show, and the submit that opens the message. */
export function useBackupCode({ flow, id }: { flow: ScanFlow; id: string }) {
  const navigate = useNavigate();
  const open = useOpenWithCode();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);

  const change = (value: string) => {
    setTyped(value.replace(/[^\d\s-]/g, '').slice(0, 11));
    setError(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (open.isPending) return;
    const code = digitsOf(typed);
    if (code.length !== BACKUP_CODE.digits) {
      setError(texts.backupCode.incomplete);
      return;
    }
    setError(null);
    try {
      const res = await open.mutateAsync(flow === 'direct' ? { flow, giftId: id, code } : { flow, recipientId: id, code });
      const to = revealedPath(res, flow === 'direct' ? id : null);
      if (to) void navigate(to, { replace: true });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : texts.recipient.unexpected);
    }
  };

  return { typed, change, error, submit, pending: open.isPending };
}
