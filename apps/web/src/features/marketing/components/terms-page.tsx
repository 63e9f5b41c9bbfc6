import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ContentPage, PROSE } from '../../../components/ui/content-page.tsx';
import { MailLink } from '../../../components/ui/mail-link.tsx';

export function TermsPage() {
  return (
    <ContentPage
      title="Terms & Conditions"
      eyebrow="Legal"
      description="The agreement between you and GiftLens: what the service does, what you may upload, plans, payments and our responsibilities."
      intro="These terms apply when you send or receive a gift message with GiftLens. Please read them with our Privacy Policy."
      meta="Last updated 21 November 2026"
    >
      <div className={PROSE}>
        <h2>1. The service</h2>
        <p>
          GiftLens lets a sender attach a video, voice or text message to a physical gift. The recipient reveals the
          message by photographing the gift in a web browser. We host the message, recognise the gift from the photo
          the sender provided and play the message after a successful scan, within the limits of the chosen plan.
        </p>

        <h2>2. Who can use GiftLens</h2>
        <p>
          You must be at least 16 years old to send a gift. You confirm your identity with a one-time code sent to your
          e-mail address; there is no password. Keep access to that mailbox secure: anyone who can read it can act for
          you on GiftLens.
        </p>

        <h2>3. Your content</h2>
        <p>
          You keep every right to the messages and photos you upload. You give us a limited permission to store,
          convert (for example into a format every phone can play) and show them to your recipient, only to provide
          the service and only for as long as your plan lasts.
        </p>
        <p>You agree not to upload anything that:</p>
        <ul>
          <li>is illegal, threatening, harassing, hateful or sexually explicit;</li>
          <li>infringes someone else’s copyright, privacy or other rights, including music you may not share;</li>
          <li>contains malware or tries to attack the service or other people;</li>
          <li>is sent to someone who has asked you not to contact them.</li>
        </ul>
        <p>We may remove content that breaks these rules and close access for the people who send it.</p>

        <h2>4. Plans, validity and scans</h2>
        <p>
          Each gift has one plan, chosen before payment. Validity starts when the payment succeeds. Basic lasts 24
          hours with 3 scans, Premium lasts 30 days with 10 scans, and Lifetime never expires with unlimited scans.
          Prices for your region are shown on the <Link to={paths.pricing.href()}>pricing page</Link> and at checkout,
          including any taxes we must charge. Only the Lifetime plan offers reaction recording, always with the
          recipient’s consent.
        </p>

        <h2>5. Gift recognition</h2>
        <p>
          Recognition works best with a clear, well-lit photo of the gift as it will be received. It can fail in very
          poor light, when the gift has been unwrapped into something different, or when two gifts look the same. If
          your recipient cannot open a message that was set up properly, contact us and we will help; see the{' '}
          <Link to={paths.cancellationRefund.href()}>Cancellation &amp; Refund policy</Link> for what happens when we
          cannot.
        </p>

        <h2>6. Payments</h2>
        <p>
          Payments are taken by our card payment provider. We confirm every payment with the provider before a gift
          becomes active. You are responsible for the details you give at checkout.
        </p>

        <h2>7. Delivery of the gift link</h2>
        <p>
          The gift link is delivered digitally: you can copy and share it straight away or schedule it by e-mail. We
          are not involved in shipping the physical gift. See{' '}
          <Link to={paths.shippingDelivery.href()}>Digital Delivery</Link> for details.
        </p>

        <h2>8. Availability and liability</h2>
        <p>
          We work hard to keep GiftLens available and your messages safe, but we cannot promise the service will never
          be interrupted. To the extent the law allows, our total liability for any gift is limited to the amount you
          paid for it. Nothing in these terms limits rights you have as a consumer that cannot be limited by contract.
        </p>

        <h2>9. Ending the service</h2>
        <p>
          You can ask us to delete a gift at any time. We may suspend access if these terms are broken. If we ever stop
          operating GiftLens, we will give senders of active Lifetime gifts at least 90 days’ notice and a way to
          download their messages.
        </p>

        <h2>10. Changes and contact</h2>
        <p>
          We may update these terms; the date above shows the latest version and changes apply to gifts created
          afterwards. Questions about these terms: <MailLink subject="Legal inquiry" />.
        </p>
      </div>
    </ContentPage>
  );
}
