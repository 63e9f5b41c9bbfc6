import {
  staffApi,
  StaffAuditResponse,
  StaffGiftResponse,
  StaffJobsResponse,
  StaffMembersResponse,
  StaffMessageResponse,
  StaffSearchResponse,
  type StaffExtendRequest,
  type StaffGiftResponse as StaffGift,
} from '@giftlens/contract/staff';
import { SuccessBody } from '@giftlens/contract/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { staffRequest } from './request.ts';

export const STAFF_QUERY_MIN = 3;

export const staffSearchKey = (q: string) => ['staff', 'search', q] as const;
export const staffGiftKey = (giftId: string) => ['staff', 'gift', giftId] as const;
export const staffJobsKey = ['staff', 'jobs'] as const;
export const staffAuditKey = (giftId?: string) => ['staff', 'audit', giftId ?? null] as const;
export const staffMembersKey = ['staff', 'members'] as const;

/** GET gifts?q=: by sender or recipient e-mail, gift id, order id or provider payment id. */
export function useStaffSearch(q: string) {
  return useQuery({
    queryKey: staffSearchKey(q),
    queryFn: ({ signal }) =>
      staffRequest(
        'GET',
        `${staffApi.gifts}?q=${encodeURIComponent(q)}`,
        undefined,
        StaffSearchResponse,
        signal,
      ),
    enabled: q.length >= STAFF_QUERY_MIN,
    retry: false,
  });
}

/** While a delivery sent again is on its way, the gift is asked again this often, so the page says how it went. */
const RESEND_POLL_MS = 2_000;

const onItsWay = (data: StaffGift | undefined, deliveryId: string | null) =>
  data?.gift.deliveries.some(
    (d) => d.id === deliveryId && (d.status === 'pending' || d.status === 'sending'),
  ) ?? false;

/**
 * GET gifts/{id}: details, orders, deliveries and the timeline (never the message's content); asked again while
 * `watchedDelivery` (one just sent again) is pending or sending.
 */
export function useStaffGift(giftId: string, watchedDelivery: string | null = null) {
  return useQuery({
    queryKey: staffGiftKey(giftId),
    queryFn: ({ signal }) => staffRequest('GET', staffApi.gift(giftId), undefined, StaffGiftResponse, signal),
    retry: false,
    refetchInterval: (query) => (onItsWay(query.state.data, watchedDelivery) ? RESEND_POLL_MS : false),
  });
}

/** One of the actions on a gift; every one carries a reason and answers the gift again. */
export type GiftAction =
  | { kind: 'resend'; deliveryId: string; reason: string }
  | ({ kind: 'extend' } & StaffExtendRequest)
  | { kind: 'refund'; reason: string }
  | { kind: 'takedown'; reason: string }
  | { kind: 'lift'; reason: string };

function actionCall(giftId: string, action: GiftAction): [string, unknown] {
  switch (action.kind) {
    case 'resend':
      return [staffApi.resend(giftId, action.deliveryId), { reason: action.reason }];
    case 'extend': {
      const { kind: _kind, ...body } = action;
      return [staffApi.extend(giftId), body];
    }
    case 'refund':
      return [staffApi.refund(giftId), { reason: action.reason }];
    case 'takedown':
      return [staffApi.takedown(giftId), { reason: action.reason }];
    case 'lift':
      return [staffApi.liftTakedown(giftId), { reason: action.reason }];
  }
}

/** POST an action: the answer (the gift with its new timeline) replaces what the page shows; the audit list is stale. */
export function useGiftAction(giftId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: GiftAction) => {
      const [path, body] = actionCall(giftId, action);
      return staffRequest('POST', path, body, StaffGiftResponse);
    },
    onSuccess: (data) => {
      client.setQueryData(staffGiftKey(giftId), data);
      void client.invalidateQueries({ queryKey: ['staff', 'audit'] });
      void client.invalidateQueries({ queryKey: ['staff', 'search'] });
    },
  });
}

/** POST gifts/{id}/message {reason}: the content, audited; it also adds a staff event to the timeline. */
export function useShowMessage(giftId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) =>
      staffRequest('POST', staffApi.message(giftId), { reason }, StaffMessageResponse),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: staffGiftKey(giftId) });
      void client.invalidateQueries({ queryKey: ['staff', 'audit'] });
    },
  });
}

/** GET jobs: counts by kind and state, the oldest due job's lag, the dead jobs. */
export function useStaffJobs() {
  return useQuery({
    queryKey: staffJobsKey,
    queryFn: ({ signal }) => staffRequest('GET', staffApi.jobs, undefined, StaffJobsResponse, signal),
    retry: false,
    refetchInterval: 15_000,
  });
}

export function useRetryJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId, reason }: { jobId: string; reason: string }) =>
      staffRequest('POST', staffApi.retryJob(jobId), { reason }, SuccessBody),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: staffJobsKey });
      void client.invalidateQueries({ queryKey: ['staff', 'audit'] });
    },
  });
}

/** GET audit (?giftId=): the newest entries. */
export function useStaffAudit(giftId?: string) {
  return useQuery({
    queryKey: staffAuditKey(giftId),
    queryFn: ({ signal }) =>
      staffRequest(
        'GET',
        giftId ? `${staffApi.audit}?giftId=${encodeURIComponent(giftId)}` : staffApi.audit,
        undefined,
        StaffAuditResponse,
        signal,
      ),
    retry: false,
  });
}

/** GET members: the staff team and whose authenticator is enrolled. */
export function useStaffMembers() {
  return useQuery({
    queryKey: staffMembersKey,
    queryFn: ({ signal }) => staffRequest('GET', staffApi.members, undefined, StaffMembersResponse, signal),
    retry: false,
  });
}

/** POST members/reset-totp: a colleague's lost phone; answers the team again. */
export function useResetTotp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ email, reason }: { email: string; reason: string }) =>
      staffRequest('POST', staffApi.resetTotp, { email, reason }, StaffMembersResponse),
    onSuccess: (team) => {
      client.setQueryData(staffMembersKey, team);
      void client.invalidateQueries({ queryKey: ['staff', 'audit'] });
    },
  });
}
