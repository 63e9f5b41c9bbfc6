import { Link } from 'react-router';

/** The demo pages' big link buttons (48 px high); `className` gives the colours. */
export function DemoLink({ to, className, children }: { to: string; className: string; children: string }) {
  return (
    <Link to={to} className={`inline-flex min-h-12 items-center justify-center rounded-xl px-6 font-semibold ${className}`}>
      {children}
    </Link>
  );
}
