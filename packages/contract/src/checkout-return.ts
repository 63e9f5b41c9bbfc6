// No zod here: the web app's route map imports these, and it is part of the first bundle of every page.

/** Stripe's placeholder in a success_url: it puts the session id there on the way back. */
export const CHECKOUT_SESSION_ID = '{CHECKOUT_SESSION_ID}';

/** The page where a sender adds scans to a paid gift (issue 40). */
export const addScansPath = (giftId: string) => `/add-scans/${giftId}`;

/** Where Stripe Checkout sends the sender back (the web app's routes; the server builds the URLs from these). */
export const checkoutReturnPaths = {
  /** `{CHECKOUT_SESSION_ID}` in place of the id: Stripe fills it in. */
  paid: (giftId: string, sessionId: string) => `/payment-success/${giftId}/stripe/${sessionId}`,
  cancelled: (giftId: string) => `/checkout/${giftId}`,
};
