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
  popular: z.boolean(),
  reactions: z.boolean(),
  features: z.array(z.string()),
});
export type PlanSummary = z.infer<typeof PlanSchema>;

const PlansResponse = z.object({ region: z.enum(['IN', 'US']), plans: z.array(PlanSchema) });

/** GET /api/plans?country=XX: the regional price list, owned by the server. */
export function usePlans(country: string | null) {
  return useQuery({
    queryKey: ['plans', country],
    queryFn: ({ signal }) =>
      apiRequest('GET', `${API.plans}?country=${encodeURIComponent(country ?? '')}`, undefined, {
        fallbackError: M.generic,
        schema: PlansResponse,
        signal,
      }),
    enabled: country !== null,
    staleTime: 10 * 60 * 1000,
  });
}
