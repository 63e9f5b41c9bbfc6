import { Fragment } from 'react';

/**
 * An e-mail address that wraps where a reader expects: after the "@" and before each dot. Each part is an
 * inline block, so a line never breaks inside one (not even at a hyphen) unless that part alone is wider than
 * the line.
 */
export function EmailAddress({ email, className = '' }: { email: string; className?: string }) {
  const parts = email.split(/(?=[.@])|(?<=@)/);
  return (
    <span className={className}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          <span className="inline-block max-w-full [overflow-wrap:anywhere]">{part}</span>
        </Fragment>
      ))}
    </span>
  );
}
