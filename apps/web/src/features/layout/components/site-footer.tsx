import { Facebook, Instagram, Linkedin, Youtube } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { BrandMark } from '../../../components/ui/brand-mark.tsx';
import { MailLink } from '../../../components/ui/mail-link.tsx';

const linkClass =
  'rounded text-stone-300 transition-colors hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

const SOCIAL = [
  { label: 'GiftLens on Instagram', href: 'https://www.instagram.com/giftlens.app', Icon: Instagram },
  { label: 'GiftLens on Facebook', href: 'https://www.facebook.com/giftlens.app', Icon: Facebook },
  { label: 'GiftLens on YouTube', href: 'https://www.youtube.com/@giftlens', Icon: Youtube },
  { label: 'GiftLens on LinkedIn', href: 'https://www.linkedin.com/company/giftlens', Icon: Linkedin },
] as const;

function Column({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{title}</h2>
      <ul className="mt-4 space-y-3 text-[15px]">{children}</ul>
    </div>
  );
}

/** Site footer: Quick Links, Support, Legal, social links and the copyright year. */
export function SiteFooter() {
  return (
    <footer className="bg-stone-900 text-stone-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div className="max-w-sm">
          <Link to={paths.home.href()} className={`inline-flex items-center gap-2.5 text-xl font-bold text-white ${linkClass}`}>
            <BrandMark className="size-9" />
            GiftLens
          </Link>
          <p className="mt-4 text-[15px] leading-relaxed">
            Attach a personal video, voice or text message to any physical gift. Your recipient photographs the
            gift and your message plays — no QR code, no app.
          </p>
          <ul className="mt-6 flex gap-3" aria-label="Social media">
            {SOCIAL.map(({ label, href, Icon }) => (
              <li key={href}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={label}
                  className="inline-flex size-11 items-center justify-center rounded-full bg-stone-800 text-stone-200 transition-colors hover:bg-brand-500 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
                >
                  <Icon aria-hidden className="size-5" />
                </a>
              </li>
            ))}
          </ul>
        </div>

        <Column title="Quick Links">
          <li><Link className={linkClass} to={paths.scan.href()}>Scan Gift</Link></li>
          <li><Link className={linkClass} to={paths.send.href()}>Send Gift</Link></li>
          <li><Link className={linkClass} to={paths.blog.href()}>Blog</Link></li>
          <li><Link className={linkClass} to={paths.forBusiness.href()}>For Business</Link></li>
        </Column>

        <Column title="Support">
          <li><Link className={linkClass} to={paths.contact.href()}>Contact Us</Link></li>
          <li><Link className={linkClass} to={paths.shippingDelivery.href()}>Digital Delivery</Link></li>
          <li><Link className={linkClass} to={paths.cancellationRefund.href()}>Cancellation &amp; Refund</Link></li>
          <li><MailLink className={linkClass} subject="Support request">Email Support</MailLink></li>
        </Column>

        <Column title="Legal">
          <li><Link className={linkClass} to={paths.privacy.href()}>Privacy Policy</Link></li>
          <li><Link className={linkClass} to={paths.terms.href()}>Terms &amp; Conditions</Link></li>
          <li><MailLink className={linkClass} subject="Legal inquiry">Legal Inquiries</MailLink></li>
          <li><MailLink className={linkClass} subject="Privacy concern">Privacy Concerns</MailLink></li>
        </Column>
      </div>
      <div className="border-t border-stone-800">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-stone-400 sm:px-6">
          © {new Date().getFullYear()} GiftLens. Made for the people who still wrap gifts by hand.
        </p>
      </div>
    </footer>
  );
}
