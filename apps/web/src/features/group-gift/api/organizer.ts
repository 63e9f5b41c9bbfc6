import { LooseSuccessBody } from '@giftlens/contract/common';
import {
  contributionApi,
  ContributionsResponse,
  GroupStateResponse,
  InvitationsResponse,
  InviteResponse,
  type InviteRequest,
} from '@giftlens/contract/group-gifts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { options } from './request.ts';

/** While a contribution or the combined video is being made, the lists are asked again this often. */
const PROCESSING_POLL_MS = 4_000;
/** While contributions are open, new ones are looked for this often. */
const OPEN_POLL_MS = 20_000;


export const invitationsKey = (giftId: string) => ['group-gift', giftId, 'invitations'] as const;
export const contributionsKey = (giftId: string) => ['group-gift', giftId, 'contributions'] as const;

/** GET invitations: who was invited, in which state, and the group as a whole. */
export function useInvitations(giftId: string) {
  return useQuery({
    queryKey: invitationsKey(giftId),
    queryFn: ({ signal }) => apiRequest('GET', contributionApi.invitations(giftId), undefined, options(InvitationsResponse, signal)),
    retry: false,
    refetchInterval: (query) => (query.state.data?.group.open ? OPEN_POLL_MS : false),
  });
}

/** GET contributions, in the recipient's order; asked again while one is converted or the combined video is made. */
export function useContributions(giftId: string) {
  return useQuery({
    queryKey: contributionsKey(giftId),
    queryFn: ({ signal }) => apiRequest('GET', contributionApi.contributions(giftId), undefined, options(ContributionsResponse, signal)),
    retry: false,
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data) return false;
      const busy = data.contributions.some((c) => c.state === 'processing') || data.group.combined.state === 'processing';
      if (busy) return PROCESSING_POLL_MS;
      return data.group.open ? OPEN_POLL_MS : false;
    },
  });
}

/** Both lists again (after an invitation, a removal, closing). */
function useRefreshGroup(giftId: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: invitationsKey(giftId) }),
      client.invalidateQueries({ queryKey: contributionsKey(giftId) }),
    ]);
}

export function useInvite(giftId: string) {
  const refresh = useRefreshGroup(giftId);
  return useMutation({
    mutationFn: (body: InviteRequest) => apiRequest('POST', contributionApi.invitations(giftId), body, options(InviteResponse)),
    onSuccess: () => refresh(),
  });
}

/** PATCH a contribution's position: the answer is the list in its new order, shown at once. */
export function useMoveContribution(giftId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, position }: { id: string; position: number }) =>
      apiRequest('PATCH', contributionApi.contribution(giftId, id), { position }, options(ContributionsResponse)),
    onSuccess: (data) => client.setQueryData(contributionsKey(giftId), data),
  });
}

export function useRemoveContribution(giftId: string) {
  const refresh = useRefreshGroup(giftId);
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', contributionApi.contribution(giftId, id), undefined, options(LooseSuccessBody)),
    onSuccess: () => refresh(),
  });
}

/** DELETE an invitation: the organizer takes the invitee's place back (their link stops, their message goes). */
export function useRemoveInvitation(giftId: string) {
  const refresh = useRefreshGroup(giftId);
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', contributionApi.invitation(giftId, id), undefined, options(GroupStateResponse)),
    onSuccess: () => refresh(),
  });
}

/** POST shared-link: a new shared invitation link; the old one stops at once. */
export function useNewSharedLink(giftId: string) {
  const refresh = useRefreshGroup(giftId);
  return useMutation({
    mutationFn: () => apiRequest('POST', contributionApi.sharedLink(giftId), undefined, options(GroupStateResponse)),
    onSuccess: () => refresh(),
  });
}

export function useCloseContributions(giftId: string) {
  const refresh = useRefreshGroup(giftId);
  return useMutation({
    mutationFn: () => apiRequest('POST', contributionApi.close(giftId), undefined, options(GroupStateResponse)),
    onSuccess: () => refresh(),
  });
}
