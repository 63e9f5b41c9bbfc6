import { CARD_TEXTS, cardOccasion, type CardLanguage } from '@giftlens/contract/gift-card';
import { spacedBackupCode } from '@giftlens/contract/texts';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { cardFaces, runsOf, type CardFace, type Weight } from '../../lib/shipped-fonts.ts';

/**
 * What a printable card needs, as plain data (no request, no database): the sender's gifts use it through
 * GET /api/gift-sender/gifts/{giftId}/card.pdf, and a merchant's gifts can use the same function.
 */
export interface GiftCardData {
  lang: CardLanguage;
  recipientName: string;
  /** An occasion value ("birthday"), named in the card's language; any other text is printed as it is. */
  occasion: string;
  /** The gift's link, printed as it is and encoded in the QR code. */
  link: string;
  /** The 8-digit backup code, or null (then the card has no code line). */
  backupCode: string | null;
}

const MM = 72 / 25.4;
/** The folded card: an A5 sheet (148 × 210 mm) folded across its middle into an A6 card (148 × 105 mm). */
const FOLDED = { w: 148 * MM, h: 210 * MM, x: 31 * MM, y: 10 * MM };
/** The credit-card size card (ISO/IEC 7810 ID-1: 85.60 × 53.98 mm). */
const WALLET = { w: 85.6 * MM, h: 53.98 * MM, x: ((210 - 85.6) / 2) * MM, y: 232 * MM };
const INK = '#1f2937';
const SOFT = '#4b5563';
const ACCENT = '#7c3aed';

type Align = 'left' | 'center';
interface LineStyle {
  size: number;
  weight?: Weight;
  color?: string;
  align?: Align;
  /** The width it must fit in: centred in it, or shrunk (down to `minSize`) when longer. */
  width: number;
  minSize?: number;
}

/**
 * Renders the card: one A4 page (vector text, selectable; a vector QR code) with the folded A6 card on top and the
 * credit-card size card below, each with cut marks. Resolves to the PDF's bytes.
 */
export async function renderGiftCard(data: GiftCardData): Promise<Buffer> {
  const t = CARD_TEXTS[data.lang];
  const faces: Record<Weight, CardFace[]> = { 400: cardFaces(400), 700: cardFaces(700) };
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    lang: data.lang,
    displayTitle: true,
    info: { Title: t.forName(data.recipientName), Author: 'GiftLens', Creator: 'GiftLens', Producer: 'GiftLens' },
  });
  for (const weight of [400, 700] as const) for (const face of faces[weight]) doc.registerFont(face.name, face.data);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  /** Width of a line of text in its faces at a size. */
  const widthOf = (text: string, size: number, weight: Weight) =>
    runsOf(text, faces[weight]).reduce((sum, run) => sum + doc.font(run.face.name).fontSize(size).widthOfString(run.text), 0);

  /**
   * One line at baseline y, run by run in the face that has its characters; wrapped in a marked-content span whose
   * ActualText is the line as written, so text extraction reads Devanagari in logical order (not glyph order).
   */
  const line = (text: string, x: number, y: number, style: LineStyle) => {
    const weight = style.weight ?? 400;
    let size = style.size;
    let width = widthOf(text, size, weight);
    while (width > style.width && size > (style.minSize ?? style.size)) {
      size = Math.max(style.minSize ?? style.size, size - 0.25);
      width = widthOf(text, size, weight);
    }
    let at = style.align === 'center' ? x + (style.width - width) / 2 : x;
    doc.markContent('Span', { actual: text });
    for (const run of runsOf(text, faces[weight])) {
      doc.font(run.face.name).fontSize(size).fillColor(style.color ?? INK);
      doc.text(run.text, at, y, { lineBreak: false, baseline: 'alphabetic' });
      at += doc.widthOfString(run.text);
    }
    doc.endMarkedContent();
  };

  /** Text broken at spaces into lines that fit `style.width`; returns the baseline after the last line. */
  const paragraph = (text: string, x: number, y: number, style: LineStyle, leading = 1.3) => {
    const weight = style.weight ?? 400;
    const lines: string[] = [];
    for (const word of text.split(' ')) {
      const current = lines.at(-1);
      if (current !== undefined && widthOf(`${current} ${word}`, style.size, weight) <= style.width) lines[lines.length - 1] = `${current} ${word}`;
      else lines.push(word);
    }
    let baseline = y;
    for (const [index, text] of lines.entries()) {
      if (index > 0) baseline += style.size * leading;
      line(text, x, baseline, style);
    }
    return baseline;
  };

  const qr = QRCode.create(data.link, { errorCorrectionLevel: 'M' });
  /** The QR code as vector squares, with its quiet zone inside `side`. */
  const qrCode = (x: number, y: number, side: number) => {
    const n = qr.modules.size;
    const cell = side / (n + 8);
    doc.save();
    for (let row = 0; row < n; row++)
      for (let col = 0; col < n; col++) if (qr.modules.get(row, col)) doc.rect(x + (col + 4) * cell, y + (row + 4) * cell, cell + 0.01, cell + 0.01);
    doc.fillColor('#000000').fill();
    doc.restore();
  };

  const cutMarks = (box: { x: number; y: number; w: number; h: number }) => {
    const gap = 2 * MM;
    const len = 5 * MM;
    doc.save().lineWidth(0.3).strokeColor('#000000');
    for (const cx of [box.x, box.x + box.w])
      for (const cy of [box.y, box.y + box.h]) {
        const dx = cx === box.x ? -1 : 1;
        const dy = cy === box.y ? -1 : 1;
        doc.moveTo(cx + dx * gap, cy).lineTo(cx + dx * (gap + len), cy).stroke();
        doc.moveTo(cx, cy + dy * gap).lineTo(cx, cy + dy * (gap + len)).stroke();
      }
    doc.restore();
  };

  const occasion = cardOccasion(data.occasion, data.lang);
  const code = data.backupCode ? spacedBackupCode(data.backupCode) : null;
  const steps = t.steps.map((step, i) => `${i + 1}. ${step}`);

  // --- The folded card: the front on the top half, the back (upside down, so it reads upright once folded) below.
  const half = FOLDED.h / 2;
  const pad = 10 * MM;
  const inner = FOLDED.w - 2 * pad;
  doc.save().lineWidth(0.4).strokeColor(ACCENT).roundedRect(FOLDED.x + 6 * MM, FOLDED.y + 6 * MM, FOLDED.w - 12 * MM, half - 12 * MM, 4 * MM).stroke().restore();
  line(t.forName(data.recipientName), FOLDED.x + pad, FOLDED.y + 42 * MM, { size: 26, weight: 700, align: 'center', width: inner, minSize: 12 });
  line(occasion, FOLDED.x + pad, FOLDED.y + 56 * MM, { size: 15, color: ACCENT, align: 'center', width: inner, minSize: 9 });
  line(t.waiting, FOLDED.x + pad, FOLDED.y + 72 * MM, { size: 11, color: SOFT, align: 'center', width: inner, minSize: 7 });

  doc.save().rotate(180, { origin: [FOLDED.x + FOLDED.w / 2, FOLDED.y + half + half / 2] });
  {
    const top = FOLDED.y + half;
    const qrSide = 40 * MM;
    const textWidth = inner - qrSide - 4 * MM;
    let y = top + pad + 4 * MM;
    for (const step of steps) y = paragraph(step, FOLDED.x + pad, y, { size: 11.5, width: textWidth }) + 8 * MM;
    qrCode(FOLDED.x + FOLDED.w - pad - qrSide, top + pad - 3 * MM, qrSide);
    line(t.linkLabel, FOLDED.x + pad, top + 62 * MM, { size: 8, color: SOFT, width: inner });
    line(data.link, FOLDED.x + pad, top + 67 * MM, { size: 10, width: inner, minSize: 6 });
    if (code) {
      line(t.codeLabel, FOLDED.x + pad, top + 76 * MM, { size: 8, color: SOFT, width: inner });
      line(code, FOLDED.x + pad, top + 84 * MM, { size: 16, weight: 700, width: inner });
      line(t.codeHint, FOLDED.x + pad, top + 91 * MM, { size: 8, color: SOFT, width: inner, minSize: 6 });
    }
  }
  doc.restore();
  // The fold: a dashed line across, with ticks outside the card.
  const foldY = FOLDED.y + half;
  doc.save().lineWidth(0.3).strokeColor('#9ca3af').dash(3, { space: 3 }).moveTo(FOLDED.x, foldY).lineTo(FOLDED.x + FOLDED.w, foldY).stroke().undash();
  doc.moveTo(FOLDED.x - 7 * MM, foldY).lineTo(FOLDED.x - 2 * MM, foldY).stroke();
  doc.moveTo(FOLDED.x + FOLDED.w + 2 * MM, foldY).lineTo(FOLDED.x + FOLDED.w + 7 * MM, foldY).stroke().restore();
  line(t.fold, FOLDED.x + FOLDED.w + 2 * MM, foldY - 1.5 * MM, { size: 6, color: SOFT, width: 12 * MM });
  cutMarks(FOLDED);

  // --- The credit-card size card.
  {
    const p = 4 * MM;
    const qrSide = 24 * MM;
    const textWidth = WALLET.w - 2 * p - qrSide - 1 * MM;
    doc.save().lineWidth(0.3).strokeColor('#d1d5db').roundedRect(WALLET.x, WALLET.y, WALLET.w, WALLET.h, 3 * MM).stroke().restore();
    line(t.forName(data.recipientName), WALLET.x + p, WALLET.y + p + 4 * MM, { size: 11, weight: 700, width: textWidth, minSize: 6 });
    line(occasion, WALLET.x + p, WALLET.y + p + 8.5 * MM, { size: 7.5, color: ACCENT, width: textWidth, minSize: 5 });
    let y = WALLET.y + p + 13.5 * MM;
    for (const step of steps) y = paragraph(step, WALLET.x + p, y, { size: 6.5, width: textWidth }, 1.2) + 3.4 * MM;
    qrCode(WALLET.x + WALLET.w - p - qrSide + 1 * MM, WALLET.y + 2 * MM, qrSide);
    line(data.link, WALLET.x + p, WALLET.y + WALLET.h - p - 5 * MM, { size: 6, width: WALLET.w - 2 * p, minSize: 4.5 });
    if (code) line(`${t.codeLabel}: ${code}`, WALLET.x + p, WALLET.y + WALLET.h - p, { size: 7.5, weight: 700, width: WALLET.w - 2 * p, minSize: 5 });
  }
  cutMarks(WALLET);
  line(t.cut, WALLET.x + WALLET.w + 2 * MM, WALLET.y - 3 * MM, { size: 6, color: SOFT, width: 12 * MM });

  doc.end();
  return finished;
}

