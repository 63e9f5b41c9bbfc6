/** Scrolls the window to the top; instant so a new step never starts half-way down the page. */
export function scrollToTop(): void {
  window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
}
