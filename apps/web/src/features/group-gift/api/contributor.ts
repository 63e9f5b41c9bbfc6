import { LooseSuccessBody } from '@giftlens/contract/common';
import {
  contributionApi,
  ContributionPageResponse,
  ContributionUploadUrlResponse,
  ContributionVerifyResponse,
  OwnContributionResponse,
  type ContributionConfirmRequest,
  type ContributionTextRequest,
  type ContributionUploadUrlRequest,
} from '@giftlens/contract/group-gifts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { options } from './request.ts';

/** While the contributor's file is converted, their page is asked again this often. */
const PROCESSING_POLL_MS = 3_000;

export const contributionPageKey = (token: string) => ['contribution', token] as const;

/** GET /api/contributions/{token}: the gift, the deadline and the contributor's own message. */
export function useContributionPage(token: string) {
  return useQuery({
    queryKey: contributionPageKey(token),
    queryFn: ({ signal }) => apiRequest('GET', contributionApi.page(token), undefined, options(ContributionPageResponse, signal)),
    retry: false,
    refetchInterval: (query) => (query.state.data?.mine?.state === 'processing' ? PROCESSING_POLL_MS : false),
  });
}

export function useSetContributionPage(token: string) {
  const client = useQueryClient();
  return (update: (page: ContributionPageResponse) => ContributionPageResponse) =>
    client.setQueryData<ContributionPageResponse>(contributionPageKey(token), (page) => (page ? update(page) : page));
}

export const sendContributionCode = (token: string, email: string) =>
  apiRequest('POST', contributionApi.sendCode(token), { email }, options(LooseSuccessBody));

export const verifyContributionCode = (token: string, email: string, code: string) =>
  apiRequest('POST', contributionApi.verify(token), { email, code }, options(ContributionVerifyResponse));

export const contributionUploadUrl = (token: string, body: ContributionUploadUrlRequest) =>
  apiRequest('POST', contributionApi.uploadUrl(token), body, options(ContributionUploadUrlResponse));

export const confirmContribution = (token: string, body: ContributionConfirmRequest) =>
  apiRequest('POST', contributionApi.confirm(token), body, options(OwnContributionResponse));

export const saveTextContribution = (token: string, body: ContributionTextRequest) =>
  apiRequest('POST', contributionApi.text(token), body, options(OwnContributionResponse));

export const deleteContribution = (token: string) =>
  apiRequest('DELETE', contributionApi.page(token), undefined, options(LooseSuccessBody));
