import { BarChart3, Gift, HeartHandshake, Package, Palette, Repeat } from 'lucide-react';
import { ContentPage } from '../../../components/ui/content-page.tsx';
import { MailLink } from '../../../components/ui/mail-link.tsx';
import { NumberedList } from '../../../components/ui/numbered-list.tsx';

const BENEFITS = [
  {
    Icon: HeartHandshake,
    title: 'An unboxing people remember',
    text: 'Let buyers attach a video, voice or text message to the order they send as a gift. The recipient photographs your product and sees the giver — not a printed note.'
  },
  {
    Icon: Package,
    title: 'No stickers, nothing to change',
    text: 'No QR stickers on your packaging line: the product is recognised from your own catalogue photo, so the look of your brand stays intact. Each gift also has an 8-digit backup code.'
  },
  {
    Icon: Palette,
    title: 'Your brand, front and centre',
    text: 'The recipient’s greeting and message pages carry your name and logo: “A message from Priya, with your order from your shop”.'
  },
  {
    Icon: Repeat,
    title: 'Gifts that bring new customers',
    text: 'Every reveal introduces your brand to someone who already loves what you make — at the happiest moment of the parcel’s life.',
  },
  {
    Icon: BarChart3,
    title: 'Know what happens after delivery',
    text: 'Signed webhooks tell your store when a message is ready, sent and opened, and when a reaction can be watched; a monthly count of gifts made and opened comes with the invoice. Never the content of a message.'
  },
  {
    Icon: Gift,
    title: 'Made for giftable products',
    text: 'Jewelry, watches, fragrance, chocolate, books and keepsakes: the categories where a personal word matters most.',
  },
] as const;

const STEPS = [
  'We set up your shop with an API key and your webhook address, and check your catalogue photos are recognisable.',
  'For each gift order your store calls our API with the order and the product’s photo; the buyer is e-mailed a link to record or upload their message, no account needed.',
  'You pack and ship as usual. The recipient’s link goes by e-mail at once, at a time you choose, or when you tell us the parcel was delivered.',
  'The recipient photographs the product with their phone and the message plays, with your brand around it.',
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
          <p className="mt-3 text-[15px] leading-relaxed text-stone-800">
            Developers: the merchant API (an API key per shop, multipart gift creation with idempotency keys, signed
            webhooks) is described in our <a className="font-semibold underline" href="/api/docs">API reference</a>.
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
