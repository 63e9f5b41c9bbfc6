import { Menu, X } from 'lucide-react';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { BrandMark } from '../../../components/ui/brand-mark.tsx';
import { HOW_IT_WORKS_ID, revealSection } from '../scroll.ts';

const LINKS = [
  { label: 'Scan Gift', to: paths.scan.href() },
  { label: 'Send Gift', to: paths.send.href() },
  { label: 'My Gifts', to: paths.myGifts.href() },
  { label: 'Blog', to: paths.blog.href() },
  { label: 'For Business', to: paths.forBusiness.href() },
  { label: 'Pricing', to: paths.pricing.href() },
] as const;

const HOW_IT_WORKS_HREF = `${paths.home.href()}#${HOW_IT_WORKS_ID}`;
// A fixed id (not useId): the bar is prerendered and must hydrate to identical markup.
const MENU_ID = 'site-menu';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-[15px] font-medium transition-colors hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600 ${
    isActive ? 'text-brand-600' : 'text-stone-700'
  }`;

/**
 * Top navigation: brand, How It Works, the links (My Gifts among them) and Get Started; a toggle menu below
 * 1024 px.
 */
export function NavBar() {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();

  // On the landing page the section is already there: glide to it. Elsewhere, go home and let the
  // route-change scroll manager bring the section into view once the landing page has rendered it.
  const onHowItWorks = (event: MouseEvent<HTMLAnchorElement>) => {
    setOpen(false);
    event.preventDefault();
    if (location.pathname === paths.home.href() && document.getElementById(HOW_IT_WORKS_ID)) {
      revealSection(HOW_IT_WORKS_ID, { smooth: true });
      return;
    }
    void navigate(HOW_IT_WORKS_HREF);
  };
  const close = () => setOpen(false);
  const toggle = useRef<HTMLButtonElement>(null);

  // Escape closes the open menu from anywhere on the page, and focus goes back to the button that opened it.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="sticky top-0 z-40 border-b border-stone-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link
          to={paths.home.href()}
          onClick={close}
          className="flex items-center gap-2.5 rounded-lg text-xl font-bold tracking-tight text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <BrandMark className="size-9" />
          GiftLens
        </Link>

        <ul className="hidden items-center gap-1 lg:flex">
          <li>
            <a href={HOW_IT_WORKS_HREF} onClick={onHowItWorks} className={linkClass({ isActive: false })}>
              How It Works
            </a>
          </li>
          {LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} className={linkClass}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>

        <div className="flex items-center gap-2">
          <Link
            to={paths.send.href()}
            onClick={close}
            className="hidden min-h-11 items-center rounded-xl bg-brand-500 px-5 text-[15px] font-semibold text-white shadow-sm transition-colors hover:brightness-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:inline-flex"
          >
            Get Started
          </Link>
          <button
            ref={toggle}
            type="button"
            className="inline-flex size-11 items-center justify-center rounded-xl text-stone-800 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 lg:hidden"
            aria-expanded={open}
            aria-controls={MENU_ID}
            aria-label={open ? 'Close menu' : 'Open menu'}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <X aria-hidden className="size-6" /> : <Menu aria-hidden className="size-6" />}
          </button>
        </div>
      </nav>

      <div id={MENU_ID} hidden={!open} className="border-t border-stone-200 bg-white lg:hidden">
        <ul className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3 sm:px-6">
          <li>
            <a href={HOW_IT_WORKS_HREF} onClick={onHowItWorks} className={`block ${linkClass({ isActive: false })}`}>
              How It Works
            </a>
          </li>
          {LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} onClick={close} className={(s) => `block ${linkClass(s)}`}>
                {link.label}
              </NavLink>
            </li>
          ))}
          <li className="pt-2">
            <Link
              to={paths.send.href()}
              onClick={close}
              className="flex min-h-11 items-center justify-center rounded-xl bg-brand-500 px-5 font-semibold text-white hover:brightness-90"
            >
              Get Started
            </Link>
          </li>
        </ul>
      </div>
    </header>
  );
}
