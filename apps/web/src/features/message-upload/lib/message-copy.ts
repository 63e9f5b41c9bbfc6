export type MessagePurpose = 'checkout' | 'replace';

/** What differs between the wizard's message step and replacing a paid gift's message. */
export const MESSAGE_COPY: Record<
  MessagePurpose,
  { title: string; intro: string; submit: string; hasMessage: string; background: string; continueNow: string; whileUploading: string }
> = {
  checkout: {
    title: 'Add Your Personal Message',
    intro: 'Record or upload a message. It plays when they photograph the gift.',
    submit: 'Continue to Checkout',
    hasMessage: 'Your message is uploaded. Continue to checkout, or record or upload a new one to replace it.',
    background: 'Your message keeps uploading in the background, so you can go on to checkout.',
    continueNow: 'Continue to checkout now',
    whileUploading: 'The upload keeps going in the background if you continue to checkout.',
  },
  replace: {
    title: 'Replace Your Message',
    intro: 'Record or upload a new message. It replaces the current one; your recipient has not opened the gift yet.',
    submit: 'Save New Message',
    hasMessage: 'Your gift has a message. Record, upload or write a new one to replace it.',
    background: 'Your message keeps uploading in the background, so you can go back to My Gifts.',
    continueNow: 'Back to My Gifts now',
    whileUploading: 'The upload keeps going in the background if you go back to My Gifts.',
  },
};
