import { ContentPage, PROSE } from '../../../components/ui/content-page.tsx';
import { MailLink } from '../../../components/ui/mail-link.tsx';

export function ShippingDeliveryPage() {
  return (
    <ContentPage
      title="Digital Delivery"
      eyebrow="Support"
      description="GiftLens delivers gift links digitally, right after payment or at the time you schedule. Nothing is shipped."
      intro="GiftLens is a digital service. We never ship physical goods: you give or post the gift yourself, and we deliver the message that goes with it."
      meta="Last updated 21 November 2026"
    >
      <div className={PROSE}>
        <h2>What is delivered</h2>
        <p>
          After payment you get a gift link. Whoever opens it in front of the gift can photograph it and play your
          message. Your recipient can also find the gift by entering their e-mail address on the Scan Gift page.
        </p>

        <h2>When it is delivered</h2>
        <ul>
          <li>
            <strong>Share now</strong>: the link is shown as soon as payment is confirmed, usually within seconds. Copy
            it into any chat, card or e-mail.
          </li>
          <li>
            <strong>Share later</strong>: pick a date and time (in 10-minute steps) and we e-mail the link to your
            recipient at that moment in your time zone — perfect for arriving with the parcel or at midnight on a
            birthday.
          </li>
          <li>
            <strong>WhatsApp</strong>: “share now” opens your own WhatsApp with the link filled in, so it comes from
            you.
          </li>
        </ul>

        <h2>If the link does not arrive</h2>
        <ul>
          <li>Ask your recipient to look in their spam or promotions folder for an e-mail from GiftLens.</li>
          <li>You can always copy the link again from the page you reached after payment.</li>
          <li>
            Still stuck? Write to <MailLink subject="Delivery problem" /> with the recipient’s name and the date of
            payment and we will resend it.
          </li>
        </ul>

        <h2>The physical gift</h2>
        <p>
          You take care of the gift itself, by hand or through any shop or courier. Photograph the gift the way your
          recipient will hold it once it is unwrapped — the product, its box or its label, the side with the most
          print facing the camera — so their photo looks like yours. They are asked to remove the wrapping first.
        </p>
      </div>
    </ContentPage>
  );
}
