import { ChevronDown, Users } from 'lucide-react';
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { onFirstInteraction } from '../../../lib/first-interaction.ts';
import { lazyPart } from '../../../lib/lazy-part.ts';
import { useFocusWhenLost } from '../../../lib/use-focus.ts';

/** The share page's anchor for the group section (My Gifts' Group gift links here). */
export const GROUP_SECTION_HASH = '#group';

// The panel opens on a tap (or from My Gifts): its code and the group schemas load on the first interaction (decision 046).
const { Part: OrganizerPanel, preload } = lazyPart(() => import('./organizer-panel.tsx').then((m) => m.OrganizerPanel));

/**
 * "Make it a group gift", collapsible (the section and its toggle keep 80 px from the top when scrolled to or
 * focused: clear of the 64-px sticky header, WCAG 2.4.11): friends and family add their own messages, played after the sender's. Open
 * at once when the page is opened at #group.
 */
export function GroupGiftSection({ giftId }: { giftId: string }) {
  const { hash } = useLocation();
  const [open, setOpen] = useState(hash === GROUP_SECTION_HASH);
  const panelId = useId();
  const section = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => onFirstInteraction(preload), []);
  useEffect(() => {
    if (hash === GROUP_SECTION_HASH) section.current?.scrollIntoView({ block: 'start' });
  }, [hash]);
  // Arriving at #group (My Gifts' Group gift), focus starts on the section's toggle, the heading of what the visitor
  // came for, instead of <body>; as the staff screens do (WCAG 2.4.3).
  useFocusWhenLost(toggle, hash === GROUP_SECTION_HASH);

  return (
    <section ref={section} id="group" aria-labelledby="group-heading" className="mt-5 scroll-mt-20 rounded-2xl border border-stone-200">
      <h2 id="group-heading">
        <button
          ref={toggle}
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          className="flex min-h-11 w-full scroll-mt-20 items-center gap-3 rounded-2xl px-4 py-3 text-left focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          <Users className="size-5 shrink-0 text-brand-600" aria-hidden />
          <span className="flex-1">
            <span className="block font-semibold text-stone-900">Make it a group gift</span>
            <span className="block text-sm text-stone-600">
              Invite others to add a video, voice or text message. They play after yours.
            </span>
          </span>
          <ChevronDown className={`size-5 shrink-0 text-stone-500 transition ${open ? 'rotate-180' : ''}`} aria-hidden />
        </button>
      </h2>
      {open ? (
        <div id={panelId} className="border-t border-stone-200 p-4">
          <Suspense fallback={<p className="text-sm text-stone-600">Loading…</p>}>
            <OrganizerPanel giftId={giftId} />
          </Suspense>
        </div>
      ) : null}
    </section>
  );
}
