/** The GiftLens mark: a wrapped gift inside a camera viewfinder. Decorative; pair it with the name. */
export function BrandMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 48 48" className={className} aria-hidden="true" focusable="false">
      <rect width="48" height="48" rx="12" fill="#d9421e" />
      <path
        d="M9 17v-5a3 3 0 0 1 3-3h5M31 9h5a3 3 0 0 1 3 3v5M39 31v5a3 3 0 0 1-3 3h-5M17 39h-5a3 3 0 0 1-3-3v-5"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
      />
      <rect x="15" y="22" width="18" height="12" rx="1.5" fill="#fff" />
      <rect x="14" y="18.5" width="20" height="4.5" rx="1.2" fill="#fff" />
      <path d="M24 18.5V34" stroke="#d9421e" strokeWidth="2.4" />
      <path
        d="M24 18.5c-2.6-4.2-7.2-4.6-7.2-2 0 1.8 3.6 2 7.2 2Zm0 0c2.6-4.2 7.2-4.6 7.2-2 0 1.8-3.6 2-7.2 2Z"
        fill="#fff"
      />
    </svg>
  );
}
