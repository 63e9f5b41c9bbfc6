import { Briefcase, LifeBuoy, Scale, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ContentPage } from '../../../components/ui/content-page.tsx';
import { MailLink, SUPPORT_EMAIL } from '../../../components/ui/mail-link.tsx';

const TOPICS = [
  {
    Icon: LifeBuoy,
    title: 'Help with a gift',
    text: 'A scan that will not match, a link that did not arrive, a payment question. Include the gift link or the recipient’s name.',
    subject: 'Support request',
  },
  {
    Icon: Briefcase,
    title: 'Business and partnerships',
    text: 'Brands that want to add personal messages to their orders, and anyone who would like to work with us.',
    subject: 'Business inquiry',
  },
  {
    Icon: ShieldCheck,
    title: 'Privacy',
    text: 'Ask for a copy of your data, or to delete a message, a reaction or everything we hold about you.',
    subject: 'Privacy concern',
  },
  {
    Icon: Scale,
    title: 'Legal',
    text: 'Questions about our terms, or a report of content that should not be on GiftLens.',
    subject: 'Legal inquiry',
  },
] as const;

export function ContactPage() {
  return (
    <ContentPage
      title="Contact us"
      eyebrow="Support"
      description="Reach the GiftLens team by e-mail for help with a gift, business inquiries, privacy and legal questions."
      intro={
        <>
          Real people read every message. Write to <MailLink className="font-semibold text-brand-600 underline" /> and
          we reply within one working day, usually the same day.
        </>
      }
    >
      <ul className="grid gap-4 sm:grid-cols-2">
        {TOPICS.map(({ Icon, title, text, subject }) => (
          <li key={title} className="flex flex-col rounded-2xl border border-stone-200 bg-white p-6">
            <Icon aria-hidden className="size-7 text-brand-600" />
            <h2 className="mt-3 text-lg font-semibold text-stone-900">{title}</h2>
            <p className="mt-2 flex-1 text-[15px] leading-relaxed text-stone-700">{text}</p>
            <MailLink
              subject={subject}
              className="mt-4 inline-flex min-h-11 items-center justify-center rounded-xl border border-stone-300 px-4 font-semibold text-stone-800 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              Write to {SUPPORT_EMAIL}
            </MailLink>
          </li>
        ))}
      </ul>
      <p className="mt-10 text-[15px] text-stone-700">
        Looking for a quick answer? Many questions are covered in our{' '}
        <Link to={paths.faq.href()} className="font-semibold text-brand-600 underline">
          FAQ
        </Link>
        .
      </p>
    </ContentPage>
  );
}
