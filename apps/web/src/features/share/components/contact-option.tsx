import type { ContactType } from '@giftlens/contract/scheduling';
import type { LucideIcon } from 'lucide-react';

/** The note saying why WhatsApp is off; a disabled option points to it. */
export const WHATSAPP_NOTE_ID = 'schedule-whatsapp-note';

/** One channel (WhatsApp or e-mail) as a radio drawn as a button. */
export function ContactOption({
  type,
  label,
  icon: Icon,
  checked,
  disabled = false,
  onSelect,
}: {
  type: ContactType;
  label: string;
  icon: LucideIcon;
  checked: boolean;
  disabled?: boolean;
  onSelect: (type: ContactType) => void;
}) {
  const look = disabled
    ? 'cursor-not-allowed border border-stone-200 bg-stone-100 text-stone-400'
    : checked
      ? 'cursor-pointer border-2 border-brand-500 bg-brand-50 text-brand-700'
      : 'cursor-pointer border border-stone-300 bg-white text-stone-700 hover:bg-stone-50';
  return (
    <label
      className={`flex min-h-11 items-center justify-center gap-2 rounded-xl px-3 text-sm font-semibold has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500 ${look}`}
    >
      <input
        type="radio"
        name="contactType"
        value={type}
        checked={checked}
        disabled={disabled}
        onChange={() => onSelect(type)}
        className="sr-only"
        aria-describedby={disabled ? WHATSAPP_NOTE_ID : undefined}
      />
      <Icon className="size-4" aria-hidden />
      {label}
    </label>
  );
}
