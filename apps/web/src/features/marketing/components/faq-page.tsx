import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { Accordion, type AccordionItem } from '../../../components/ui/accordion.tsx';
import { ContentPage } from '../../../components/ui/content-page.tsx';
import { MailLink } from '../../../components/ui/mail-link.tsx';

const link = 'font-semibold text-brand-600 underline underline-offset-2';

const GROUPS: readonly { title: string; items: readonly AccordionItem[] }[] = [
  {
    title: 'Sending a gift',
    items: [
      {
        question: 'What do I need to send a GiftLens message?',
        answer: (
          <p>
            An e-mail address, a photo of the gift (unwrapped, as your recipient will hold it) and your message: a video, a voice recording or a few
            written lines. Everything happens in the browser; you can record on the spot or upload a file.
          </p>
        ),
      },
      {
        question: 'How long can my message be?',
        answer: (
          <p>
            Video and voice files can be up to 30 MB on Basic and Premium, and up to 50 MB on Lifetime — roughly two to
            four minutes of phone video. Text messages can be up to 2,000 characters.
          </p>
        ),
      },
      {
        question: 'What makes a good gift photo?',
        answer: (
          <p>
            Photograph the gift unwrapped, the way your recipient will hold it once the paper is off: in good light,
            filling most of the frame, the side with the most print towards the camera. Your recipient is asked to
            remove the wrapping before they photograph it, so a photo of the paper would not open it. If the gift is
            one of a range that looks alike (two flavours of one brand), photograph the side that tells them apart.
            Plain boxes all look alike: photograph the product out of its box, or a card or tag that goes inside.
          </p>
        ),
      },
      {
        question: 'Can friends and family add their own messages?',
        answer: (
          <p>
            Yes, with a group gift on Premium (up to 10 contributors) or Lifetime (up to 50); not on India Basic. After
            payment, open “Make it a group gift” on the share page or in My Gifts, invite people by e-mail or share one
            invitation link, and set a deadline (three days unless you choose another). Each adds a video, voice or
            text message without an account or paying; your recipient scans once and sees yours first, then theirs.
          </p>
        ),
      },
      {
        question: 'Can I schedule the message for a birthday at midnight?',
        answer: (
          <p>
            Yes. After payment choose “Share Link Later”, pick the date and time and we e-mail the gift link to your
            recipient at that minute, in your time zone.
          </p>
        ),
      },
    ],
  },
  {
    title: 'Receiving a gift',
    items: [
      {
        question: 'I received a gift with a GiftLens message. What do I do?',
        answer: (
          <p>
            Open the gift link you were sent, or go to <Link className={link} to={paths.scan.href()}>Scan Gift</Link>{' '}
            and enter your e-mail address. Allow the camera, point it at the gift and your message plays.
          </p>
        ),
      },
      {
        question: 'My gift came with a small printed card. What is it for?',
        answer: (
          <p>
            The sender printed it for the box. It is your way in: open the link on it, or scan its QR code with your
            phone's camera, then unwrap the gift and photograph it, and the message plays. The QR code only opens the
            page; the gift itself still unlocks the message. If the camera cannot recognise the gift, type the 8-digit
            backup code printed on the card.
          </p>
        ),
      },
      {
        question: 'The scan does not recognise my gift. Help!',
        answer: (
          <p>
            Move to a brighter spot, put the gift on a plain background and hold the phone steady so the whole gift is
            in the frame, with the wrapping off. Try the side with the most print, or the product out of its box. Still
            no luck? Write to{' '}
            <MailLink className={link} subject="Scan problem" /> and we will help.
          </p>
        ),
      },
      {
        question: 'Will my reaction be recorded without me knowing?',
        answer: (
          <p>
            Never. Reaction recording exists only on the Lifetime plan, and you are asked first: “Play &amp; Record
            Video” or “Just Play”. A REC badge is visible the whole time, and only the sender sees the result.
          </p>
        ),
      },
    ],
  },
  {
    title: 'Plans, payments and privacy',
    items: [
      {
        question: 'How much does it cost?',
        answer: (
          <p>
            Prices depend on your region and start at $1.99 or ₹29 per gift. See{' '}
            <Link className={link} to={paths.pricing.href()}>pricing</Link> for the plans in your currency.
          </p>
        ),
      },
      {
        question: 'Can I get a refund?',
        answer: (
          <p>
            Yes, within 24 hours of payment if the message has not been played, and always if we could not get it to
            play. Details are in our <Link className={link} to={paths.cancellationRefund.href()}>refund policy</Link>.
          </p>
        ),
      },
      {
        question: 'Who can see my message?',
        answer: (
          <p>
            Only someone with the gift link or the recipient’s verified e-mail, photographing the real gift. Links to
            the media expire after five minutes. Read the{' '}
            <Link className={link} to={paths.privacy.href()}>privacy policy</Link> for everything we store.
          </p>
        ),
      },
    ],
  },
];

export function FaqPage() {
  return (
    <ContentPage
      title="Frequently asked questions"
      eyebrow="Help"
      description="Answers about sending and receiving GiftLens gift messages, scanning, plans, refunds and privacy."
      intro="Everything people usually ask before their first GiftLens gift. Missing something? Ask us."
    >
      <div className="space-y-12">
        {GROUPS.map((group, g) => (
          <section key={group.title}>
            <h2 className="mb-4 text-2xl font-bold tracking-tight text-stone-900">{group.title}</h2>
            <Accordion id={`faq-${g}`} items={group.items} />
          </section>
        ))}
      </div>
    </ContentPage>
  );
}
