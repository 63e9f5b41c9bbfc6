import { RECIPIENT_NAME_MAX } from '@giftlens/contract/constants';
import { OCCASIONS, occasionLabel } from '@giftlens/contract/occasions';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useDetailsForm, type DetailsFormOptions } from '../hooks/use-details-form.ts';
import { GiftPhotosField } from './gift-photos-field.tsx';

export type { CreatedGift, DetailsDraft } from '../hooks/use-details-form.ts';

export function DetailsStep(props: DetailsFormOptions) {
  const { form, submitGift, compressing, addPhotos, removePhoto, lowerCaseEmail, submit } = useDetailsForm(props);
  const { errors } = form.formState;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-5">
      <div className="text-center">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Add Gift Details</h1>
        <p className="mt-2 text-stone-600">Tell us who the gift is for and show us the gift.</p>
      </div>

      <SelectField label="Occasion" error={errors.occasion?.message} {...form.register('occasion')}>
        <option value="" disabled>
          Select an occasion
        </option>
        {OCCASIONS.map((o) => (
          <option key={o} value={o}>
            {occasionLabel(o)}
          </option>
        ))}
      </SelectField>

      <TextField
        label="Recipient name"
        autoComplete="off"
        maxLength={RECIPIENT_NAME_MAX}
        error={errors.recipientName?.message}
        {...form.register('recipientName')}
      />

      <TextField
        label="Recipient email"
        type="email"
        inputMode="email"
        autoComplete="off"
        placeholder="recipient@example.com"
        hint="We use it to deliver the gift link if you schedule it."
        error={errors.recipientEmail?.message}
        {...form.register('recipientEmail', { onChange: lowerCaseEmail })}
      />

      <GiftPhotosField
        photos={props.photos}
        compressing={compressing}
        error={errors.giftImages?.message}
        onAdd={(e) => void addPhotos(e)}
        onRemove={removePhoto}
      />

      {submitGift.isError ? <Alert>{submitGift.error.message}</Alert> : null}

      <Button type="submit" block disabled={submitGift.isPending || compressing}>
        {submitGift.isPending ? 'Creating gift…' : 'Continue'}
      </Button>
    </form>
  );
}
