import { ContentPage, PROSE } from '../../../components/ui/content-page.tsx';
import { MailLink } from '../../../components/ui/mail-link.tsx';

export function CancellationRefundPage() {
  return (
    <ContentPage
      title="Cancellation & Refund"
      eyebrow="Support"
      description="When you can cancel a GiftLens gift and get your money back, and how refunds are paid."
      intro="GiftLens plans are digital services that start working the moment you pay. Here is when we refund, and how."
      meta="Last updated 21 November 2026"
    >
      <div className={PROSE}>
        <h2>Full refund</h2>
        <p>We refund the full price of a gift when:</p>
        <ul>
          <li>you cancel within 24 hours of paying and the message has not yet been played;</li>
          <li>you were charged twice for the same gift;</li>
          <li>
            your recipient could not open a message that was set up properly (a clear photo of the gift, the same gift
            being scanned) and our support team could not fix it within 3 working days.
          </li>
        </ul>

        <h2>No refund</h2>
        <ul>
          <li>once the message has been played, because the service has then been delivered;</li>
          <li>when a plan has simply reached its end of validity or its number of scans;</li>
          <li>when the gift or photo was changed so the gift can no longer be recognised (for example a photo of a different box).</li>
        </ul>

        <h2>Changing plans</h2>
        <p>
          Chose Basic and wish you had picked Lifetime? Write to us before the message is first played and we will
          cancel the first gift with a full refund so you can create it again with the plan you want.
        </p>

        <h2>How to ask</h2>
        <ol>
          <li>Write to <MailLink subject="Refund request" /> from the e-mail you used to send the gift.</li>
          <li>Tell us the gift link or the recipient’s name and the date of payment.</li>
          <li>We reply within one working day and confirm the refund.</li>
        </ol>

        <h2>How refunds are paid</h2>
        <p>
          Refunds go back to the card or account you paid with, through our payment provider. They are started within
          2 working days of approval and usually appear within 5 to 7 working days, depending on your bank. When a
          refund is made the gift is deactivated and its message can no longer be played.
        </p>
      </div>
    </ContentPage>
  );
}
