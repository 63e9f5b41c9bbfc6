export const HOW_IT_WORKS_ID = 'how-it-works';

/** Longer than any smooth glide to a section of the landing page. */
const GLIDE_SETTLE_MS = 1000;

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * Smoothly brings a section into view (instantly for visitors who asked for less motion). A glide can be cut
 * short: on the landing page the click is often the visitor's first interaction, which is when the lower half
 * hydrates. So once the glide should be over, a section still far from the top is brought there at once.
 */
export function scrollToSection(id: string): boolean {
  const el = document.getElementById(id);
  if (!el) return false;
  el.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
  window.setTimeout(() => {
    const target = document.getElementById(id);
    if (target && Math.abs(target.getBoundingClientRect().top) > window.innerHeight / 2) {
      target.scrollIntoView({ behavior: 'auto', block: 'start' });
    }
  }, GLIDE_SETTLE_MS);
  return true;
}
