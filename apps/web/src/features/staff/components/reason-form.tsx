import { STAFF_REASON_MAX, staffTexts } from '@giftlens/contract/staff';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { controlAttributes, FieldShell, useFieldIds } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';

const REASON_MIN = 3;

/** What a destructive action asks before it runs. */
export interface Confirmation {
  title: string;
  body: ReactNode;
  confirmLabel: string;
}

export interface ReasonFormProps {
  title: string;
  /** One line on what the action does. */
  description?: ReactNode;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The server's text when the call failed. */
  error: string | null;
  /** Fields of the action itself (Extend's days and scans), shown above the reason. */
  children?: ReactNode;
  /** The action's own check before anything is sent: its error text, or null. */
  validate?: () => string | null;
  /** Asked in a dialog before the call (refund, take down). */
  confirm?: Confirmation;
  danger?: boolean;
  onSubmit: (reason: string) => void;
  onCancel: () => void;
}

/**
 * The small form every staff action opens: the action's own fields, a required reason (kept in the audit trail),
 * and for a destructive action a confirmation dialog; the server's error text stays in the form.
 */
export function ReasonForm({
  title,
  description,
  submitLabel,
  pendingLabel,
  pending,
  error,
  children,
  validate,
  confirm,
  danger = false,
  onSubmit,
  onCancel,
}: ReasonFormProps) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const headingId = useId();
  const reasonError =
    problem === staffTexts.reasonRequired || problem === staffTexts.reasonTooLong ? problem : undefined;
  const ids = useFieldIds(undefined, { error: reasonError });

  const check = (): boolean => {
    const trimmed = reason.trim();
    const own = validate?.() ?? null;
    const next =
      own ??
      (trimmed.length < REASON_MIN
        ? staffTexts.reasonRequired
        : trimmed.length > STAFF_REASON_MAX
          ? staffTexts.reasonTooLong
          : null);
    setProblem(next);
    return next === null;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pending || !check()) return;
    if (confirm) setConfirming(true);
    else onSubmit(reason.trim());
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-2xl border border-stone-300 bg-stone-50 p-4"
    >
      <div>
        <h3 id={headingId} className="text-lg font-semibold text-stone-900">
          {title}
        </h3>
        {description ? <p className="mt-1 text-sm text-stone-600">{description}</p> : null}
      </div>
      {children}
      <FieldShell {...ids} label="Reason (kept in the audit trail)" error={reasonError}>
        <textarea
          {...controlAttributes(ids, { error: reasonError }, 'min-h-20')}
          name="reason"
          value={reason}
          maxLength={STAFF_REASON_MAX}
          required
          onChange={(e) => setReason(e.target.value)}
          // The field the action's button opened: typing the reason is what comes next.
          autoFocus={children === undefined}
        />
      </FieldShell>
      {problem && !reasonError ? <Alert>{problem}</Alert> : null}
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          variant={danger ? 'danger' : 'primary'}
          disabled={pending}
          className="grow sm:grow-0"
        >
          {pending ? pendingLabel : submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={pending} className="grow sm:grow-0">
          Cancel
        </Button>
      </div>
      {confirm ? (
        <Modal open={confirming} title={confirm.title} onDismiss={() => setConfirming(false)}>
          <div className="text-stone-700">{confirm.body}</div>
          <div className="flex w-full flex-col gap-2 sm:flex-row-reverse">
            <Button
              variant="danger"
              block
              onClick={() => {
                setConfirming(false);
                onSubmit(reason.trim());
              }}
            >
              {confirm.confirmLabel}
            </Button>
            <Button variant="secondary" block onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </div>
        </Modal>
      ) : null}
    </form>
  );
}
