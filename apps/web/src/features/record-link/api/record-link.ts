import { LooseSuccessBody } from '@giftlens/contract/common';
import { merchantTexts, RecordLinkResponse, recordApi } from '@giftlens/contract/record-link';
import { GenerateUploadUrlResponse } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import { useQuery } from '@tanstack/react-query';
import type { core } from 'zod/mini';
import { apiRequest } from '../../../lib/api-client.ts';

const MERCHANT_TEXTS: ReadonlySet<unknown> = new Set(Object.values(merchantTexts));
const options = <T>(schema: core.$ZodType<T>, signal?: AbortSignal) => ({
  fallbackError: texts.sender.generic,
  schema,
  signal,
  isOwnText: (text: unknown) => MERCHANT_TEXTS.has(text),
});

/** GET /api/record/{token}: the gift, the shop and the message so far. */
export function useRecordLink(token: string) {
  return useQuery({
    queryKey: ['record-link', token],
    queryFn: ({ signal }) => apiRequest('GET', recordApi.record(token), undefined, options(RecordLinkResponse, signal)),
    retry: false,
  });
}

export const saveRecordText = (token: string, text: string) => apiRequest('POST', recordApi.text(token), { text }, options(LooseSuccessBody));

export const recordUploadUrl = (token: string, body: { fileType: string; fileSize: number; messageType: 'video' | 'audio' }) =>
  apiRequest('POST', recordApi.uploadUrl(token), body, options(GenerateUploadUrlResponse));

export const confirmRecord = (token: string, body: { filePath: string; messageType: 'video' | 'audio' }) =>
  apiRequest('POST', recordApi.confirm(token), body, options(LooseSuccessBody));
