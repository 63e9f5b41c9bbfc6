import { Fragment } from 'react';

/**
 * An e-mail address that wraps where a reader expects: first after the "@"; only a half still wider than the line
 * wraps again, before its dots. Each piece is an inline block, so a line never breaks inside one (not even at a
 * hyphen) unless that piece alone is wider than the line.
 */
export function EmailAddress({ email, className = '' }: { email: string; className?: string }) {
  const at = email.lastIndexOf('@');
  const halves = at > 0 ? [email.slice(0, at + 1), email.slice(at + 1)] : [email];
  return (
    <span className={className}>
      {halves.map((half, h) => (
        <Fragment key={h}>
          {h > 0 ? <wbr /> : null}
          {/* As wide as its words when they fit: the dots inside only break a half longer than the line. */}
          <span className="inline-block max-w-full">
            {half.split(/(?=\.)/).map((part, i) => (
              <Fragment key={i}>
                {i > 0 ? <wbr /> : null}
                <span className="inline-block max-w-full [overflow-wrap:anywhere]">{part}</span>
              </Fragment>
            ))}
          </span>
        </Fragment>
      ))}
    </span>
  );
}
