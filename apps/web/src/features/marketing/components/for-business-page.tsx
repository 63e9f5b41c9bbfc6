import { BarChart3, Gift, HeartHandshake, Package, Palette, Repeat } from 'lucide-react';
import { ContentPage } from '../../../components/ui/content-page.tsx';
import { MailLink } from '../../../components/ui/mail-link.tsx';
import { NumberedList } from '../../../components/ui/numbered-list.tsx';

const BENEFITS = [
  {
    Icon: HeartHandshake,
    title: 'An unboxing people remember',
    text: 'Let buyers attach a voice or video message to the order they send as a gift. The recipient scans the package and hears the giver — not a printed card.',
  },
  {
    Icon: Package,
    title: 'Nothing printed, nothing to change',
    text: 'No QR stickers or inserts on your packaging line. Your product or box is recognised from a photo, so the look of your brand stays intact.',
  },
  {
    Icon: Palette,
    title: 'Your brand, front and centre',
    text: 'The reveal screen carries your name and colours, and can end with a thank-you from your team.',
  },
  {
    Icon: Repeat,
    title: 'Gifts that bring new customers',
    text: 'Every reveal introduces your brand to someone who already loves what you make — at the happiest moment of the parcel’s life.',
  },
  {
    Icon: BarChart3,
    title: 'Know what happens after delivery',
    text: 'See how many gift messages were recorded and opened, without ever seeing the private content of a message.',
  },
  {
    Icon: Gift,
    title: 'Made for giftable products',
    text: 'Jewelry, watches, fragrance, chocolate, books and keepsakes: the categories where a personal word matters most.',
  },
] as const;

const STEPS = [
  'We photograph your packaging or products with you and check they are recognisable.',
  'At checkout your buyer records or uploads a message for the person receiving the order.',
  'You pack and ship as usual; the gift link reaches the recipient by e-mail with the parcel.',
  'The recipient scans the package with their phone and the message plays, with your brand around it.',
] as const;

export function ForBusinessPage() {
  return (
    <ContentPage
      wide
      title="GiftLens for brands"
      eyebrow="For Business"
      description="Direct-to-consumer brands use GiftLens to let buyers add a personal video or voice message to every order sent as a gift."
      intro="Many orders in giftable categories are sent to someone else. Give those buyers a way to be present when the box is opened."
    >
      <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {BENEFITS.map(({ Icon, title, text }) => (
          <li key={title} className="rounded-3xl border border-stone-200 bg-white p-6">
            <Icon aria-hidden className="size-7 text-brand-600" />
            <h2 className="mt-4 text-lg font-semibold text-stone-900">{title}</h2>
            <p className="mt-2 text-[15px] leading-relaxed text-stone-700">{text}</p>
          </li>
        ))}
      </ul>

      <section aria-labelledby="business-steps" className="mt-16 grid gap-10 lg:grid-cols-2 lg:items-start">
        <div>
          <h2 id="business-steps" className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">
            How a pilot works
          </h2>
          <NumberedList items={STEPS} tone="dark" />
        </div>
        <div className="rounded-3xl bg-brand-50 p-8">
          <h2 className="text-2xl font-bold tracking-tight text-stone-900">Talk to us</h2>
          <p className="mt-3 text-[15px] leading-relaxed text-stone-800">
            We are working with a small group of brands on pilots this season. Tell us what you sell, roughly how many
            orders you ship a month, and which platform runs your store. We will reply within two working days with a
            plan and pricing for your volume.
          </p>
          <MailLink
            subject="GiftLens for brands"
            className="mt-6 inline-flex min-h-12 items-center rounded-xl bg-brand-500 px-6 font-semibold text-white hover:brightness-90"
          >
            Request a pilot
          </MailLink>
        </div>
      </section>
    </ContentPage>
  );
}
