import { ScanLine, ShieldCheck, Smartphone } from 'lucide-react';

const BADGES = [
  {
    Icon: ShieldCheck,
    title: 'Secure and private',
    text: 'Messages travel encrypted and open only after the real gift is scanned. Links expire in minutes.',
  },
  {
    Icon: Smartphone,
    title: 'No app required',
    text: 'Your recipient uses the camera in their phone browser. Nothing to download, no account to create.',
  },
  {
    Icon: ScanLine,
    title: 'Better than QR codes',
    text: 'No sticker spoils your wrapping. The gift itself is the key, so the surprise stays a surprise.',
  },
] as const;

export function TrustBadges() {
  return (
    <section aria-labelledby="trust-heading" className="border-y border-stone-200 bg-white">
      <h2 id="trust-heading" className="sr-only">
        Why people trust GiftLens
      </h2>
      <ul className="mx-auto grid max-w-6xl gap-6 px-4 py-10 sm:px-6 md:grid-cols-3">
        {BADGES.map(({ Icon, title, text }) => (
          <li key={title} className="flex gap-4">
            <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
              <Icon aria-hidden className="size-6" />
            </span>
            <div>
              <h3 className="font-semibold text-stone-900">{title}</h3>
              <p className="mt-1 text-[15px] leading-relaxed text-stone-600">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
