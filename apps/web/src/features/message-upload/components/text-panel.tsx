import { TEXT_MESSAGE_MAX } from '@giftlens/contract/constants';
import { useId } from 'react';

export function TextPanel({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        Your message
      </label>
      <textarea
        id={id}
        rows={7}
        maxLength={TEXT_MESSAGE_MAX}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="Write something they will remember…"
        className="w-full resize-y rounded-xl border border-stone-300 bg-white px-3.5 py-3 text-base text-stone-900 placeholder:text-stone-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
      />
      <p className="self-end text-xs text-stone-500">
        {value.length}/{TEXT_MESSAGE_MAX}
      </p>
    </div>
  );
}
