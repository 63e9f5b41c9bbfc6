import {
  staffMerchantApi,
  StaffCreateMerchantResponse,
  StaffMerchantsResponse,
  StaffRevokeKeysResponse,
  StaffRotateKeyResponse,
  StaffRotateSecretResponse,
} from '@giftlens/contract/merchants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { staffRequest } from './request.ts';

export const staffMerchantsKey = ['staff', 'merchants'] as const;

/** GET merchants: every shop, its brand and its active key's prefix (never a key). */
export function useStaffMerchants() {
  return useQuery({
    queryKey: staffMerchantsKey,
    queryFn: ({ signal }) => staffRequest('GET', staffMerchantApi.merchants, undefined, StaffMerchantsResponse, signal),
    retry: false,
  });
}

/** POST merchants: the answer holds the key and the webhook secret, shown once. */
export function useCreateMerchant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; webhookUrl: string; reason: string }) => staffRequest('POST', staffMerchantApi.merchants, body, StaffCreateMerchantResponse),
    onSuccess: () => client.invalidateQueries({ queryKey: staffMerchantsKey }),
  });
}

export type KeyAction = 'rotate' | 'revoke' | 'secret';

/** A key rotated (the new key shown once), every key revoked, or the webhook secret rotated (shown once). */
export function useMerchantKeyAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ action, merchantId, reason }: { action: KeyAction; merchantId: string; reason: string }): Promise<{ shown: string | null; revoked: number }> => {
      if (action === 'rotate') {
        const r = await staffRequest('POST', staffMerchantApi.rotateKey(merchantId), { reason }, StaffRotateKeyResponse);
        return { shown: r.apiKey, revoked: r.revoked };
      }
      if (action === 'revoke') return { shown: null, revoked: (await staffRequest('POST', staffMerchantApi.revokeKey(merchantId), { reason }, StaffRevokeKeysResponse)).revoked };
      return { shown: (await staffRequest('POST', staffMerchantApi.rotateWebhookSecret(merchantId), { reason }, StaffRotateSecretResponse)).webhookSecret, revoked: 0 };
    },
    onSuccess: () => client.invalidateQueries({ queryKey: staffMerchantsKey }),
  });
}

/**
 * The brand the recipient sees beside the sender's name: PATCH the display name and colour, then, when a file was
 * chosen, PUT the logo (multipart, the reason first); each call audited with the reason.
 */
export function useSetMerchantBrand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (b: { merchantId: string; displayName: string | null; brandColour: string | null; logo: File | null; reason: string }) => {
      await staffRequest('PATCH', staffMerchantApi.merchant(b.merchantId), { displayName: b.displayName, brandColour: b.brandColour, reason: b.reason }, StaffMerchantsResponse);
      if (b.logo) {
        const form = new FormData();
        form.append('reason', b.reason);
        form.append('logo', b.logo);
        await staffRequest('PUT', staffMerchantApi.logo(b.merchantId), form, StaffMerchantsResponse);
      }
    },
    onSuccess: () => client.invalidateQueries({ queryKey: staffMerchantsKey }),
  });
}
