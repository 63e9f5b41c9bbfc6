import { SuccessBody, LooseSuccessBody } from '@giftlens/contract/common';
import {
  staffApi,
  StaffMeResponse,
  StaffSendCodeResponse,
  StaffVerifyResponse,
  type StaffVerifyRequest,
} from '@giftlens/contract/staff';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { staffRequest } from './request.ts';

export const staffMeKey = ['staff', 'me'] as const;

/** GET /api/staff/me: who is signed in and until when (401 without a staff session). */
export function useStaffMe() {
  return useQuery({
    queryKey: staffMeKey,
    queryFn: ({ signal }) => staffRequest('GET', staffApi.me, undefined, StaffMeResponse, signal),
    retry: false,
    refetchOnWindowFocus: true,
  });
}

export function useStaffSendCode() {
  return useMutation({
    mutationFn: (email: string) => staffRequest('POST', staffApi.sendCode, { email }, StaffSendCodeResponse),
  });
}

export function useStaffVerify() {
  return useMutation({
    mutationFn: (body: StaffVerifyRequest) =>
      staffRequest('POST', staffApi.verify, body, StaffVerifyResponse),
  });
}

export function useStaffTotpConfirm() {
  return useMutation({
    mutationFn: (totp: string) => staffRequest('POST', staffApi.totpConfirm, { totp }, LooseSuccessBody),
  });
}

/** Signed in: ask /me again, which shows the console. */
export function useStaffSignedIn() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: staffMeKey });
}

/** POST logout, then forget everything the console loaded. */
export function useStaffLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => staffRequest('POST', staffApi.logout, {}, SuccessBody),
    onSettled: () => {
      // Nothing a staff member saw stays in this tab; /me, asked again, answers 401 and the sign-in shows.
      client.removeQueries({ queryKey: ['staff'], predicate: (q) => q.queryKey[1] !== 'me' });
      return client.invalidateQueries({ queryKey: staffMeKey });
    },
  });
}
