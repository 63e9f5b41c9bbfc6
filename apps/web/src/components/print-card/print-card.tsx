import { CARD_LANGUAGE_NAMES, CARD_LANGUAGES, CARD_TEXTS, cardOccasion, type CardLanguage } from '@giftlens/contract/gift-card';
import { API } from '@giftlens/contract/routes';
import { spacedBackupCode, texts } from '@giftlens/contract/texts';
import { Download, Printer } from 'lucide-react';
import QRCode from 'qrcode';
import { useId, useMemo, useState } from 'react';
import { Button } from '../ui/button.tsx';
import { DEVANAGARI_FAMILY, addDevanagariFont } from './devanagari-font.ts';

export interface PrintCardProps {
  giftId: string;
  recipientName: string;
  occasion: string;
  backupCode: string | null;
  /** The gift's link as the card prints it (the share link in full). */
  link: string;
}

/** The QR code of the link as one SVG path (the same code the PDF draws). */
function QrCode({ text, className }: { text: string; className?: string }) {
  const { size, path } = useMemo(() => {
    const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const n = qr.modules.size;
    let d = '';
    for (let row = 0; row < n; row++) for (let col = 0; col < n; col++) if (qr.modules.get(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
    return { size: n + 8, path: d };
  }, [text]);
  return (
    <svg viewBox={`0 0 ${size} ${size}`} className={className} role="img" aria-label="QR code of the gift’s link" shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/**
 * "Print a card for the box" (issue 40), on the share page and in My Gifts: a language chooser, a preview of the
 * credit-card size card in that language (drawn here from the same texts and QR code as the PDF), and the PDF itself
 * (an A4 sheet: a folded A6 card and the credit-card size card, with cut marks) to download and print.
 */
export function PrintCard({ giftId, recipientName, occasion, backupCode, link }: PrintCardProps) {
  const [open, setOpen] = useState(false);
  const [lang, setLang] = useState<CardLanguage>('en');
  const panelId = useId();
  const t = CARD_TEXTS[lang];
  const pdfUrl = `${API.giftCard(giftId)}?lang=${lang}`;
  addDevanagariFont();
  return (
    <section
      aria-label={texts.giftCard.offer}
      className="mt-5 rounded-2xl border border-stone-200 p-4"
      style={{ fontFamily: `'${DEVANAGARI_FAMILY}', var(--font-sans)` }}
    >
      <Button variant="secondary" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        <Printer className="size-4" aria-hidden /> {texts.giftCard.offer}
      </Button>
      {open ? (
        <div id={panelId} className="mt-4 flex flex-col gap-4">
          <p className="text-sm text-stone-700">{texts.giftCard.intro}</p>
          <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <legend className="mb-1 text-sm font-semibold text-stone-900">{texts.giftCard.language}</legend>
            {CARD_LANGUAGES.map((code) => (
              <label key={code} className="flex min-h-11 items-center gap-2 text-sm text-stone-800">
                <input type="radio" name={`${panelId}-lang`} value={code} checked={lang === code} onChange={() => setLang(code)} className="size-4" />
                {CARD_LANGUAGE_NAMES[code]}
              </label>
            ))}
          </fieldset>
          <figure className="flex flex-col gap-2">
            <div
              lang={lang}
              data-testid="card-preview"
              aria-label={texts.giftCard.preview(recipientName)}
              role="img"
              className="mx-auto flex aspect-[85.6/53.98] w-full max-w-sm flex-col justify-between rounded-xl border border-stone-300 bg-white p-[4.5%] text-stone-900 shadow-sm"
            >
              <div className="flex justify-between gap-3">
                <div className="min-w-0">
                  <p className="truncate text-base font-bold sm:text-lg">{t.forName(recipientName)}</p>
                  <p className="truncate text-xs text-brand-700">{cardOccasion(occasion, lang)}</p>
                  <ol className="mt-1 text-[0.65rem] leading-snug text-stone-700 sm:text-xs">
                    {t.steps.map((step, i) => (
                      <li key={step}>
                        {i + 1}. {step}
                      </li>
                    ))}
                  </ol>
                </div>
                <QrCode text={link} className="size-20 shrink-0 sm:size-24" />
              </div>
              <div>
                <p className="truncate text-[0.55rem] text-stone-700 sm:text-[0.65rem]">{link}</p>
                {backupCode ? (
                  <p className="text-xs font-bold">
                    {t.codeLabel}: {spacedBackupCode(backupCode)}
                  </p>
                ) : null}
              </div>
            </div>
            <figcaption className="text-center text-xs text-stone-600">{texts.giftCard.caption}</figcaption>
          </figure>
          <a
            href={pdfUrl}
            download={texts.giftCard.fileName(recipientName)}
            className="inline-flex min-h-11 items-center justify-center gap-2 self-start rounded-xl bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            <Download className="size-4" aria-hidden /> {texts.giftCard.open}
          </a>
        </div>
      ) : null}
    </section>
  );
}
