import { FIRST_NAME_MAX } from '@giftlens/contract/constants';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useUpdateUser } from '../api/update-user.ts';
import { userDetailsResolver, type UserDetailsFormIn, type UserDetailsFormOut } from '../lib/form-schemas.ts';

/** The name step; `initialFirstName` is the name given before (coming Back from the plans keeps it). */
export function UserDetailsStep({
  email,
  initialFirstName,
  onSaved,
}: {
  email: string;
  initialFirstName: string;
  onSaved: (firstName: string) => void;
}) {
  const update = useUpdateUser();
  const form = useForm<UserDetailsFormIn, unknown, UserDetailsFormOut>({
    resolver: userDetailsResolver,
    defaultValues: { firstName: initialFirstName },
  });

  const submit = form.handleSubmit(({ firstName }) => {
    update.mutate(
      { firstName, email },
      {
        onSuccess: () => onSaved(firstName),
        onError: (err) => toast.error(err.message),
      },
    );
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-6">
      <div className="text-center">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Welcome to GiftLens!</h1>
        <p className="mt-2 text-stone-600">What&apos;s your first name? Your recipient will see who the gift is from.</p>
      </div>
      <TextField
        label="First name"
        autoComplete="given-name"
        maxLength={FIRST_NAME_MAX + 10}
        error={form.formState.errors.firstName?.message}
        {...form.register('firstName')}
      />
      <Button type="submit" block disabled={update.isPending}>
        {update.isPending ? 'Saving…' : 'Continue'}
      </Button>
    </form>
  );
}
