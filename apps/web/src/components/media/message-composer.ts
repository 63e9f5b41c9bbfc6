import type { ReactNode } from 'react';

/**
 * What a message composer hands over: a written text, or a recorded or chosen file already checked against the
 * plan's limit. The message step's recorder (features/message-upload) is one; the group gift's contributor page
 * (features/group-gift) takes one. The app composes them, like the play gate.
 */
export type ComposedMessage =
  | { messageType: 'text'; text: string }
  | { messageType: 'video' | 'audio'; file: File; fileType: string };

export interface MessageComposerProps {
  /** The largest file the plan takes, in bytes, and the plan's name for the refusal ("Your Premium plan allows…"). */
  limit: number;
  planName: string;
  /** The submit button's label, and whether saving is under way (the button is disabled meanwhile). */
  submitLabel: string;
  busy: boolean;
  /** Shown between the message and the submit button (a name field, a checkbox). */
  beforeSubmit?: ReactNode;
  /** The caller's error (a refused save), shown beside the composer's own. */
  error?: string | null;
  onSubmit: (message: ComposedMessage) => void;
}
