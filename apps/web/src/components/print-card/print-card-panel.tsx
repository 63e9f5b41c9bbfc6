import { giftCardTexts } from '@giftlens/contract/extras-texts';
import {
  CARD_LANGUAGE_NAMES,
  CARD_LANGUAGES,
  CARD_TEXTS,
  cardOccasion,
  type CardLanguage,
} from '@giftlens/contract/gift-card';
import { GIFT_EXTRAS_API } from '@giftlens/contract/gift-extras-api';
import { spacedBackupCode } from '@giftlens/contract/texts';
import { Download } from 'lucide-react';
import QRCode from 'qrcode';
import { useMemo, useState } from 'react';
import { DEVANAGARI_FAMILY, addDevanagariFont } from './devanagari-font.ts';
import type { PrintCardProps } from './print-card.tsx';

/** The QR code of the link as one SVG path (the same code the PDF draws). */
function QrCode({ text, className }: { text: string; className?: string }) {
  const { size, path } = useMemo(() => {
    const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const n = qr.modules.size;
    let d = '';
    for (let row = 0; row < n; row++)
      for (let col = 0; col < n; col++) if (qr.modules.get(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
    return { size: n + 8, path: d };
  }, [text]);
  return (
    <svg
      viewBox={`0 0 ${size} ${size}`}
      className={className}
      role="img"
      aria-label="QR code of the gift’s link"
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/**
 * The open panel of "Print a card for the box" (loaded on the click: the QR encoder and the card's texts in every
 * language stay out of the page's first load): the language chooser, the preview, the PDF.
 */
export function PrintCardPanel({
  giftId,
  recipientName,
  occasion,
  backupCode,
  link,
  panelId,
}: PrintCardProps & { panelId: string }) {
  const [lang, setLang] = useState<CardLanguage>('en');
  const t = CARD_TEXTS[lang];
  const pdfUrl = `${GIFT_EXTRAS_API.giftCard(giftId)}?lang=${lang}`;
  addDevanagariFont();
  return (
    <div
      id={panelId}
      className="mt-4 flex flex-col gap-4"
      style={{ fontFamily: `'${DEVANAGARI_FAMILY}', var(--font-sans)` }}
    >
      <p className="text-sm text-stone-700">{giftCardTexts.intro}</p>
      <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <legend className="mb-1 text-sm font-semibold text-stone-900">{giftCardTexts.language}</legend>
        {CARD_LANGUAGES.map((code) => (
          <label key={code} className="flex min-h-11 items-center gap-2 text-sm text-stone-800">
            <input
              type="radio"
              name={`${panelId}-lang`}
              value={code}
              checked={lang === code}
              onChange={() => setLang(code)}
              className="size-4"
            />
            {CARD_LANGUAGE_NAMES[code]}
          </label>
        ))}
      </fieldset>
      <figure className="flex flex-col gap-2">
        <div
          lang={lang}
          data-testid="card-preview"
          aria-label={giftCardTexts.preview(recipientName)}
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
        <figcaption className="text-center text-xs text-stone-600">{giftCardTexts.caption}</figcaption>
      </figure>
      <a
        href={pdfUrl}
        download={giftCardTexts.fileName(recipientName)}
        className="inline-flex min-h-11 items-center justify-center gap-2 self-start rounded-xl bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        <Download className="size-4" aria-hidden /> {giftCardTexts.open}
      </a>
    </div>
  );
}
