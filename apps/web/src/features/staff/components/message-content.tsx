import type { StaffMessageResponse } from '@giftlens/contract/staff';
import type { infer as Infer } from 'zod/mini';

type Message = Infer<typeof StaffMessageResponse>;

/** The message's content, shown only after a staff member asked for it with a reason. */
export function MessageContent({ message }: { message: Message }) {
  return (
    <figure className="flex flex-col gap-2 rounded-xl border border-stone-200 bg-white p-3">
      <figcaption className="text-sm font-semibold text-stone-900">The message</figcaption>
      {message.text ? (
        <blockquote className="text-base whitespace-pre-wrap break-words text-stone-900">
          {message.text}
        </blockquote>
      ) : null}
      {message.messageUrl && message.messageType === 'video' ? (
        <video
          src={message.messageUrl}
          controls
          playsInline
          className="max-h-96 w-full rounded-lg bg-black"
          aria-label="The video message"
        />
      ) : null}
      {message.messageUrl && message.messageType === 'audio' ? (
        <audio src={message.messageUrl} controls className="w-full" aria-label="The voice message" />
      ) : null}
      {!message.text && !message.messageUrl ? (
        <p className="text-sm text-stone-600">The message has no content to show.</p>
      ) : null}
    </figure>
  );
}
