import { M } from '@giftlens/contract/messages';
import { PLAN_IDS } from '@giftlens/contract/plans';
import { API } from '@giftlens/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const PlanSchema = z.object({
  id: z.enum(PLAN_IDS),
  name: z.string(),
  subtitle: z.string(),
  price: z.string(),
  validity: z.string(),
  scans: z.number().nullable(),
  maxFileBytes: z.number(),
  downloads: z.boolean(),
  reactions: z.boolean(),
  popular: z.boolean(),
  features: z.array(z.string()),
});
export type PlanView = z.infer<typeof PlanSchema>;

const PlansResponse = z.object({ region: z.string(), plans: z.array(PlanSchema) });

/** GET /api/plans?country=XX: the server owns the regional price list. */
export function getPlans(country: string, signal?: AbortSignal) {
  return apiRequest('GET', `${API.plans}?country=${encodeURIComponent(country)}`, undefined, {
    fallbackError: M.generic,
    schema: PlansResponse,
    signal,
  });
}

export function usePlans(country: string | undefined) {
  return useQuery({
    queryKey: ['plans', country],
    queryFn: ({ signal }) => getPlans(country ?? 'US', signal),
    enabled: Boolean(country),
    staleTime: 10 * 60 * 1000,
  });
}
