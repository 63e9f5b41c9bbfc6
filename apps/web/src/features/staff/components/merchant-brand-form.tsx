import type { StaffMerchant } from '@giftlens/contract/merchants';
import { useId, useState } from 'react';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSetMerchantBrand } from '../api/staff-merchants.ts';
import { ReasonForm } from './reason-form.tsx';

const COLOUR = /^#[0-9a-fA-F]{6}$/;

/**
 * The brand a merchant's recipients see ("with your order from Shop"): its display name, its colour and its logo
 * (PNG, JPEG or WebP; stored re-encoded), each change with a reason for the audit trail.
 */
export function MerchantBrandForm({ merchant, onDone, onCancel }: { merchant: StaffMerchant; onDone: (text: string) => void; onCancel: () => void }) {
  const brand = useSetMerchantBrand();
  const [displayName, setDisplayName] = useState(merchant.displayName ?? '');
  const [colour, setColour] = useState(merchant.brandColour ?? '');
  const [logo, setLogo] = useState<File | null>(null);
  const logoId = useId();
  return (
    <ReasonForm
      title={`The brand of ${merchant.name}`}
      description="What the recipient sees beside the sender’s name: “with your order from …”, the logo and the colour."
      submitLabel="Save the brand"
      pendingLabel="Saving…"
      pending={brand.isPending}
      error={brand.error?.message ?? null}
      validate={() => (colour.trim() && !COLOUR.test(colour.trim()) ? 'Please give the colour as #rrggbb (for example #0f766e), or leave it empty.' : null)}
      onCancel={onCancel}
      onSubmit={(reason) =>
        brand.mutate(
          { merchantId: merchant.id, displayName: displayName.trim() || null, brandColour: colour.trim() || null, logo, reason },
          { onSuccess: () => onDone(`The brand of ${merchant.name} is saved.`) },
        )
      }
    >
      <TextField label="Display name" value={displayName} onChange={(e) => setDisplayName(e.target.value)} hint={`Empty: “${merchant.name}”`} autoFocus />
      <TextField label="Brand colour" value={colour} onChange={(e) => setColour(e.target.value)} hint="#rrggbb, or empty for none" placeholder="#0f766e" />
      <div className="flex flex-col gap-1">
        <label htmlFor={logoId} className="text-sm font-medium text-stone-900">
          Logo (PNG, JPEG or WebP; optional)
        </label>
        <input
          id={logoId}
          type="file"
          accept="image/png,image/jpeg,image/webp"
          className="text-sm text-stone-900 file:mr-3 file:rounded-xl file:border-0 file:bg-stone-100 file:px-3 file:py-2 file:font-medium"
          onChange={(e) => setLogo(e.target.files?.[0] ?? null)}
        />
      </div>
    </ReasonForm>
  );
}
