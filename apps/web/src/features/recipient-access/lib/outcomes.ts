/** Navigation state of /gift-not-ready: the reason line the screen shows. */
export interface GiftNotReadyState {
  reason?: string;
}

/** Navigation state of /gift-not-found (the page lives in the scanning feature and reads `message`). */
export interface GiftNotFoundState {
  message?: string;
}

/** The spec turns on the gift-not-found state whenever a server text says something was "not found". */
export const saysNotFound = (text: string | undefined): boolean => Boolean(text && /not found/i.test(text));
