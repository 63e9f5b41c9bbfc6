import type { MyGift } from '@giftlens/contract/my-gifts';
import { texts } from '@giftlens/contract/texts';
import { useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { BackupCodeBox } from '../../../components/ui/backup-code-box.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useRenewBackupCode } from '../api/renew-backup-code.ts';

/** A paid gift's backup code in My Gifts, with "Make a new code" (asked once more: the old code stops working). */
export function GiftBackupCode({ gift }: { gift: MyGift }) {
  const renew = useRenewBackupCode();
  const [asking, setAsking] = useState(false);
  if (!gift.backupCode) return null;

  const confirm = async () => {
    try {
      await renew.mutateAsync(gift.id);
      setAsking(false);
      toast.success(texts.backupCode.regenerated);
    } catch {
      toast.error(texts.backupCode.regenerateFailed);
    }
  };

  return (
    <BackupCodeBox code={gift.backupCode}>
      {asking ? (
        <div className="mt-3 flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <p>{texts.backupCode.confirmRegenerate}</p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button size="sm" onClick={() => void confirm()} disabled={renew.isPending}>
              {renew.isPending ? texts.backupCode.regenerating : texts.backupCode.regenerate}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setAsking(false)} disabled={renew.isPending}>
              Keep this code
            </Button>
          </div>
        </div>
      ) : (
        <Button size="sm" variant="secondary" className="mt-3" onClick={() => setAsking(true)}>
          {texts.backupCode.regenerate}
        </Button>
      )}
    </BackupCodeBox>
  );
}
