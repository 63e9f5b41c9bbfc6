import { useEffect, useRef, type ClipboardEvent, type KeyboardEvent } from 'react';

interface CodeInputProps {
  length: number;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  /** Called when the last box is filled, e.g. to submit. */
  onComplete?: (value: string) => void;
  autoFocus?: boolean;
}

/**
 * One digit per box: typing moves to the next box, Backspace on an empty box moves back,
 * pasting anywhere takes the first `length` digits. Numeric keypad and one-time-code autofill on phones.
 */
export function CodeInput({ length, value, onChange, disabled, onComplete, autoFocus }: CodeInputProps) {
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const digits = Array.from({ length }, (_, i) => value[i] ?? '');

  const focus = (i: number) => refs.current[Math.max(0, Math.min(length - 1, i))]?.focus();

  // A wrong code is checked with the boxes disabled, which drops focus to <body>; once they are cleared and
  // enabled again, the first box takes it so the code can be typed again at once.
  const wasDisabled = useRef(disabled);
  useEffect(() => {
    const reEnabled = wasDisabled.current && !disabled;
    wasDisabled.current = disabled;
    const active = document.activeElement;
    if (reEnabled && value === '' && (!active || active === document.body)) refs.current[0]?.focus();
  }, [disabled, value]);

  const setFrom = (start: number, incoming: string) => {
    const clean = incoming.replace(/\D/g, '');
    if (!clean) return;
    const next = digits.slice();
    for (let k = 0; k < clean.length && start + k < length; k++) next[start + k] = clean[k] ?? '';
    const joined = next.join('').slice(0, length);
    onChange(joined);
    focus(Math.min(start + clean.length, length - 1));
    if (joined.length === length && !next.includes('')) onComplete?.(joined);
  };

  const handleChange = (i: number, raw: string) => {
    const clean = raw.replace(/\D/g, '');
    if (!clean) {
      const next = digits.slice();
      next[i] = '';
      onChange(next.join(''));
      return;
    }
    // Autofill of the whole code lands in one box: spread it.
    if (clean.length > 1) return setFrom(clean.length >= length ? 0 : i, clean);
    setFrom(i, clean);
  };

  const handleKeyDown = (i: number, e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace' && !digits[i] && i > 0) {
      e.preventDefault();
      const next = digits.slice();
      next[i - 1] = '';
      onChange(next.join(''));
      focus(i - 1);
    } else if (e.key === 'ArrowLeft') {
      focus(i - 1);
    } else if (e.key === 'ArrowRight') {
      focus(i + 1);
    }
  };

  const handlePaste = (e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    const pasted = e.clipboardData.getData('text').replace(/\D/g, '').slice(0, length);
    if (!pasted) return;
    setFrom(0, pasted);
  };

  return (
    <div className="flex justify-center gap-2 sm:gap-3" role="group" aria-label="Verification code">
      {digits.map((d, i) => (
        <input
          key={i}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={i === 0 ? 'one-time-code' : 'off'}
          autoFocus={autoFocus && i === 0}
          maxLength={i === 0 ? length : 1}
          aria-label={`Digit ${i + 1} of ${length}`}
          value={d}
          disabled={disabled}
          onChange={(e) => handleChange(i, e.target.value)}
          onKeyDown={(e) => handleKeyDown(i, e)}
          onPaste={handlePaste}
          onFocus={(e) => e.target.select()}
          className="size-11 rounded-xl border border-stone-300 bg-white text-center text-xl font-semibold text-stone-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200 disabled:bg-stone-100 sm:size-13"
        />
      ))}
    </div>
  );
}
