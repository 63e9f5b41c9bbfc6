import { useEffect, useId, useRef, type ReactNode } from 'react';

interface ModalProps {
  open: boolean;
  title: ReactNode;
  /** Escape (or the browser's own dismiss) asks to close: treat it as the dialog's cancel choice. */
  onDismiss: () => void;
  children: ReactNode;
  /** Shown above the title, e.g. an icon. */
  icon?: ReactNode;
  /**
   * Where focus goes once the dialog has closed, instead of the element that had it before (the browser's choice,
   * which may be disabled or about to go, leaving focus on <body>): e.g. the control that opened it, or the player
   * it led to.
   */
  returnFocus?: () => HTMLElement | null;
}

/**
 * A modal dialog on the native <dialog> element: focus is trapped and returned, Escape dismisses, and the
 * dialog is named by its title (so tests and screen readers find it as `dialog "<title>"`).
 */
export function Modal({ open, title, onDismiss, children, icon, returnFocus }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) {
      dialog.close();
      returnFocus?.()?.focus();
    }
  }, [open, returnFocus]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onDismiss();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-3xl bg-white p-0 text-stone-900 shadow-2xl backdrop:bg-stone-900/60 backdrop:backdrop-blur-sm"
    >
      {open ? (
        <div className="flex flex-col items-center gap-4 p-6 text-center sm:p-7">
          {icon}
          <h2 id={titleId} className="text-xl font-bold tracking-tight sm:text-2xl">
            {title}
          </h2>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
