import { spacedBackupCode, texts } from '@giftlens/contract/texts';
import { KeyRound } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * A paid gift's backup code as its sender sees it (My Gifts, the share page; decision 039): the 8 digits in two
 * groups, and the line suggesting it be written on the card. `children`: the sender's actions on it.
 */
export function BackupCodeBox({
  code,
  children,
  className = '',
  headingLevel = 3,
}: {
  code: string;
  children?: ReactNode;
  className?: string;
  /** The heading's level in its page: 2 on the share page, 3 inside a My Gifts card. */
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section aria-label={texts.backupCode.heading} className={`rounded-2xl border border-stone-200 bg-stone-50 p-4 ${className}`}>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <Heading className="flex items-center gap-2 text-sm font-semibold text-stone-900">
          <KeyRound className="size-4 text-brand-600" aria-hidden />
          {texts.backupCode.heading}
        </Heading>
        <p data-testid="backup-code" className="font-mono text-2xl font-bold tracking-[0.15em] whitespace-nowrap text-stone-900">
          {spacedBackupCode(code)}
        </p>
      </div>
      <p className="mt-2 text-sm text-stone-700">{texts.backupCode.writeOnCard}</p>
      {children}
    </section>
  );
}
