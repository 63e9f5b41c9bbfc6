import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ContentPage, PROSE } from '../../../components/ui/content-page.tsx';
import { MailLink } from '../../../components/ui/mail-link.tsx';
import { ORDER_RECORD_YEARS } from '@giftlens/contract/constants';

export function PrivacyPage() {
  return (
    <ContentPage
      title="Privacy Policy"
      eyebrow="Legal"
      description="What GiftLens stores, for how long, who can see your messages and reactions, and how to have your data deleted."
      intro="A gift message is personal. This policy explains, in plain words, what we keep, why, for how long, and who can see it."
      meta="Last updated 23 November 2026"
    >
      <div className={PROSE}>
        <h2>The short version</h2>
        <ul>
          <li>We keep only what it takes to deliver your message to the person you chose.</li>
          <li>A message plays only after someone photographs the real gift, through a link that expires after five minutes.</li>
          <li>How long your message is kept depends on your plan: 24 hours (Basic), 30 days (Premium) or for as long as you want (Lifetime).</li>
          <li>Reaction videos exist only on the Lifetime plan, only if the recipient agrees at that moment, and only the sender sees them.</li>
          <li>You can delete a gift, or your whole account, yourself in My Gifts at any time. Only a paid order’s accounting record (amount, date, payment ids; no names, e-mails or messages) stays, for {ORDER_RECORD_YEARS} years.</li>
          <li>No advertising, no selling of data, no third-party trackers.</li>
        </ul>

        <h2>What we store</h2>
        <h3>If you send a gift</h3>
        <ul>
          <li><strong>Your e-mail address</strong> (or phone number if you verify by WhatsApp) and your first name, so we can verify you and greet you.</li>
          <li><strong>A one-time verification code</strong>, kept only until it is used or expires after 10 minutes.</li>
          <li><strong>A session cookie</strong> that keeps you signed in while you create and look after your gifts. It holds a random token; we store only a hash of it. “Sign out” in My Gifts ends the session on our server; “Sign out everywhere” ends every session you have.</li>
          <li><strong>The gift details</strong>: recipient name, recipient e-mail or phone number, occasion, and the photo of the gift.</li>
          <li><strong>Recognition data</strong>: a compact set of visual features computed from your gift photo, used to recognise the gift when it is scanned. It cannot be turned back into your photo.</li>
          <li><strong>Your message</strong>: the video, voice recording or text you attach.</li>
          <li><strong>Payment records</strong>: plan, amount, order and payment reference. Card details go straight to our payment provider; we never see or store card numbers.</li>
          <li><strong>Notification subscriptions</strong>: if you ask to be told when a gift is opened, the address your browser’s push service gave us for this device.</li>
          <li><strong>Delivery schedule</strong>: if you schedule the gift link, the recipient contact, date, time and your time zone.</li>
        </ul>
        <h3>If you receive a gift</h3>
        <ul>
          <li><strong>Your e-mail address</strong>, when you use it to find your gift, and a one-time code as above.</li>
          <li><strong>Scan photos</strong>: the picture you take of your gift is compressed on your phone, compared with the sender’s gift photo and then discarded. We keep a record that a scan happened (time and result) to apply the plan’s scan limit and to stop abuse.</li>
          <li><strong>A reaction video</strong>, only on the Lifetime plan and only if you choose “Play &amp; Record Video”. See below.</li>
        </ul>
        <h3>Everyone</h3>
        <ul>
          <li><strong>Your approximate country</strong>, worked out on our own server from your connection, to show prices in your currency and the right phone calling code. We do not store your IP address with your gift, and we do not call outside location services.</li>
          <li><strong>Browser storage</strong> on your device: your detected country (for 24 hours), your progress in the gift wizard, and whether you dismissed the install prompt. You can clear it at any time in your browser settings.</li>
          <li><strong>Server logs</strong> (address, time, page requested, errors), kept for no more than 30 days to keep the service secure and working.</li>
        </ul>

        <h2>How long we keep it</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Plan</th>
              <th scope="col">Message can be played</th>
              <th scope="col">Scans</th>
            </tr>
          </thead>
          <tbody>
            <tr><td>Basic</td><td>24 hours from payment</td><td>3</td></tr>
            <tr><td>Premium</td><td>30 days from payment</td><td>10</td></tr>
            <tr><td>Lifetime</td><td>Never expires</td><td>Unlimited</td></tr>
          </tbody>
        </table>
        <p>
          When a Basic or Premium plan ends, the message can no longer be played and we delete the message, the gift
          photo and its recognition data within 30 days. Lifetime gifts are kept until you ask us to delete them.
          Gifts that were never paid for are deleted within 30 days. A paid order’s accounting record is kept for{' '}
          {ORDER_RECORD_YEARS} years from the payment, as tax and accounting law requires, without the message
          itself (see below).
        </p>

        <h2>Who can see your message</h2>
        <p>
          Only someone holding the gift link or the recipient’s verified e-mail, standing in front of the real gift.
          The message opens after a successful scan, through a signed link that expires after five minutes. GiftLens
          staff do not watch or listen to messages, except when you ask us to help with a specific gift or when the law
          requires it.
        </p>

        <h2>Reactions: who sees them</h2>
        <p>
          On the Lifetime plan the recipient may be offered to record their reaction while the message plays. Nothing
          is recorded unless the recipient chooses <strong>“Play &amp; Record Video”</strong>; choosing
          <strong> “Just Play”</strong> plays the message with the camera off. A red REC badge shows for the whole
          recording. Only one reaction can be recorded per gift.
        </p>
        <p>
          The reaction is shown <strong>only to the sender of that gift</strong>, in their gift list. It is never
          published, shared with other people or used for anything else. The recipient can ask us to delete it at any
          time by writing to <MailLink subject="Delete my reaction" />, and the sender can delete it too, by deleting
          the gift in My Gifts.
        </p>

        <h2 id="deleting">Deleting a gift or your account</h2>
        <p>
          In <Link to={paths.myGifts.href()}>My Gifts</Link> you can delete any of your gifts, or your whole account,
          at any time. Each happens at once, after you confirm, and cannot be undone.
        </p>
        <h3>When you delete a gift</h3>
        <ul>
          <li>We delete its photos and the recognition data made from them, your message (video, voice or text), the recipient’s reaction, and its scheduled deliveries, so the link is not sent.</li>
          <li>Every file of the gift goes from our storage too, and its gift link stops working.</li>
        </ul>
        <h3>When you delete your account</h3>
        <ul>
          <li>Every one of your gifts, as above.</li>
          <li>Your notification subscriptions, your sessions (you are signed out on every device), your verification codes, and your e-mail address and first name.</li>
        </ul>
        <h3>What stays, and for how long</h3>
        <p>
          For a gift that was paid for, we keep the order’s accounting record: its amount and currency, when it was
          created and paid, which payment provider took the payment, that provider’s order and payment ids, and the
          random ids of the order and the gift. It holds no names, e-mail addresses, photos or messages. Tax and
          accounting law requires us to keep it for <strong>{ORDER_RECORD_YEARS} years</strong> from the payment;
          then we delete it. Nothing else stays. A gift that was never paid for leaves nothing behind.
        </p>
        <p>
          The records go first, all together; the files follow straight away, and a file that cannot be deleted at
          that moment is retried automatically until it is gone. Server logs are not rewritten; they expire within 30
          days, as described above.
        </p>

        <h2>Who we share data with</h2>
        <p>We use a small number of providers who process data on our behalf and only for this service:</p>
        <ul>
          <li>our hosting and storage provider, where messages and photos are kept in private storage;</li>
          <li>our e-mail provider, to send verification codes and gift links;</li>
          <li>our card payment provider, to take payments;</li>
          <li>WhatsApp, only when you choose to share a gift link through your own WhatsApp.</li>
        </ul>
        <p>We never sell personal data and we do not use it for advertising.</p>

        <h2>Security</h2>
        <p>
          All traffic is encrypted (HTTPS). Messages and photos sit in private storage that is never publicly listed, media links are signed and expire
          after five minutes, verification codes and session tokens are stored hashed, and repeated failed scans or code
          attempts are rate limited.
        </p>

        <h2>Your rights</h2>
        <p>
          You can delete a gift or your whole account yourself in My Gifts (see above). You can also ask for a copy
          of your data, ask us to correct it, or ask us to delete a gift, a message, a reaction or everything we hold
          about you. Write to <MailLink subject="Privacy request" /> from the e-mail address you used;
          we answer within 30 days, usually much sooner. You can also complain to your local data protection authority.
        </p>

        <h2>Children</h2>
        <p>
          GiftLens is meant for people aged 16 and over. A younger recipient may scan a gift sent by a parent or
          guardian; reaction recording should only be accepted with that adult present.
        </p>

        <h2>Changes</h2>
        <p>
          If we change this policy we will update the date above, and tell senders with active gifts by e-mail if the
          change matters to them. The <Link to={paths.terms.href()}>Terms &amp; Conditions</Link> explain the rest of
          our agreement with you.
        </p>
      </div>
    </ContentPage>
  );
}
