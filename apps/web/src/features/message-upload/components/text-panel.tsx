import { TEXT_MESSAGE_MAX } from '@giftlens/contract/constants';
import { FieldShell, useFieldIds } from '../../../components/ui/field.tsx';

export function TextPanel({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const ids = useFieldIds(undefined, {});
  const id = ids.controlId;
  return (
    <FieldShell {...ids} label="Your message">
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
    </FieldShell>
  );
}
