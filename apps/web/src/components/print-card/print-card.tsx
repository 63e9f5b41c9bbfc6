import { giftCardTexts } from '@giftlens/contract/extras-texts';
import { Printer } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import { Button } from '../ui/button.tsx';

export interface PrintCardProps {
  giftId: string;
  recipientName: string;
  occasion: string;
  backupCode: string | null;
  /** The gift's link as the card prints it (the share link in full). */
  link: string;
}

const PrintCardPanel = lazy(() =>
  import('./print-card-panel.tsx').then((m) => ({ default: m.PrintCardPanel })),
);

/**
 * "Print a card for the box" (issue 40), on the share page and in My Gifts: a language chooser, a preview of the
 * credit-card size card in that language (drawn here from the same texts and QR code as the PDF), and the PDF itself
 * (an A4 sheet: a folded A6 card and the credit-card size card, with cut marks) to download and print. The panel
 * loads on the first click.
 */
export function PrintCard(props: PrintCardProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <section aria-label={giftCardTexts.offer} className="mt-5 rounded-2xl border border-stone-200 p-4">
      <Button
        variant="secondary"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <Printer className="size-4" aria-hidden /> {giftCardTexts.offer}
      </Button>
      {open ? (
        <Suspense
          fallback={
            <p role="status" className="mt-4 text-sm text-stone-600">
              Opening the card…
            </p>
          }
        >
          <PrintCardPanel {...props} panelId={panelId} />
        </Suspense>
      ) : null}
    </section>
  );
}
