import { lazyPart } from '../../lib/lazy-part.ts';

// What a sender's page needs only in some states: the sign-in (a signed-out visitor, after /me answered 401) and the
// wizard's state (a sign-in, a sign-out, a paid gift that ends the wizard). Neither is loaded before the page's
// first answer, so /my-gifts and /share stay within their JavaScript budgets (decision 046).
export const senderSignIn = lazyPart(() => import('../../features/sender-auth/components/sender-sign-in.tsx').then((m) => m.SenderSignIn));
export const wizardState = () => import('../../features/sender-wizard/hooks/use-wizard-state.ts');
