import type { ReactNode } from 'react';

/** The one address visitors write to for support, legal and privacy questions. */
export const SUPPORT_EMAIL = 'support@giftlens.app';

/** A mailto link to support, optionally with a subject line so requests arrive sorted. */
export function MailLink({
  subject,
  children,
  className = '',
}: {
  subject?: string;
  children?: ReactNode;
  className?: string;
}) {
  const href = `mailto:${SUPPORT_EMAIL}${subject ? `?subject=${encodeURIComponent(subject)}` : ''}`;
  return (
    <a href={href} className={className}>
      {children ?? SUPPORT_EMAIL}
    </a>
  );
}
