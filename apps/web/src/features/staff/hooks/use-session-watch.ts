import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isSignedOut } from '../api/request.ts';
import { staffMeKey } from '../api/staff-auth.ts';

/**
 * A staff call answered 401 (the 8 hours are over, or the session was revoked): ask /me again, whose 401 shows the
 * sign-in instead of a page of errors.
 */
export function useSessionWatch() {
  const client = useQueryClient();
  useEffect(() => {
    const recheck = (err: unknown) => {
      // Only while signed in: the sign-in's own calls (a wrong code) answer 401 too, and keep their screen.
      if (isSignedOut(err) && client.getQueryState(staffMeKey)?.status === 'success')
        void client.invalidateQueries({ queryKey: staffMeKey });
    };
    const offQueries = client.getQueryCache().subscribe((event) => {
      if (
        event.type === 'updated' &&
        event.action.type === 'error' &&
        (event.query.queryKey as readonly unknown[])[1] !== 'me'
      )
        recheck(event.action.error);
    });
    const offMutations = client.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') recheck(event.action.error);
    });
    return () => {
      offQueries();
      offMutations();
    };
  }, [client]);
}
