import { texts } from '@giftlens/contract/texts';
import { KeyRound } from 'lucide-react';
import { useParams, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { StatusPanel } from '../../../components/ui/status-panel.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useBackupCode } from '../hooks/use-backup-code.ts';

/**
 * /backup-code/{id}?type=direct — when the camera cannot recognise the gift, its 8-digit backup code opens the
 * message instead (decision 039). `id` is the gift (type=direct, the gift link) or the recipient id (e-mail code).
 */
export function BackupCodePage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const direct = params.get('type') === 'direct';
  const form = useBackupCode({ flow: direct ? 'direct' : 'recipient', id });
  const camera = direct ? paths.scanningCamera.href(id, 'direct') : paths.scanningCamera.href(id);

  return (
    <StatusPanel
      icon={<KeyRound className="size-8" aria-hidden />}
      title={texts.backupCode.title}
      actions={
        <ButtonLink to={camera} variant="secondary" block className="sm:w-auto sm:flex-1">
          {texts.backupCode.backToCamera}
        </ButtonLink>
      }
    >
      <p>{texts.backupCode.intro}</p>
      <form noValidate onSubmit={(e) => void form.submit(e)} className="flex flex-col gap-3 text-left">
        <TextField
          label={texts.backupCode.label}
          value={form.typed}
          onChange={(e) => form.change(e.target.value)}
          error={form.error ?? undefined}
          announceError
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          placeholder="1234 5678"
          className="text-center font-mono text-2xl tracking-[0.2em]"
        />
        <Button type="submit" block disabled={form.pending}>
          {form.pending ? texts.backupCode.checking : texts.backupCode.submit}
        </Button>
      </form>
    </StatusPanel>
  );
}
