import type { ReactNode } from 'react';

/**
 * The one style of text over a live camera picture: a dark, blurred pill, readable on any gift and background.
 * Used by the real scanner and the demo alike.
 */
export function CameraHint({ children, live = false }: { children: ReactNode; live?: boolean }) {
  return (
    <p
      {...(live ? { role: 'status' } : {})}
      className="rounded-full bg-black/60 px-4 py-2 text-center text-sm font-medium text-white backdrop-blur sm:text-base"
    >
      {children}
    </p>
  );
}
