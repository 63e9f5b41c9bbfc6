import * as z from 'zod/mini';
import { PLAN_IDS } from './plans.ts';

// GET /api/plans?country=XX
export const PlansQuery = z.object({ country: z.optional(z.string().check(z.length(2))) });

// GET /api/geo
export const GeoResponse = z.object({ countryCode: z.nullable(z.string().check(z.length(2))), source: z.string() });
export type GeoResponse = z.infer<typeof GeoResponse>;

/** A plan as GET /api/plans shows it (the server's Plan, minus what only the server needs). */
export const PlanView = z.object({
  id: z.enum(PLAN_IDS),
  name: z.string(),
  subtitle: z.string(),
  price: z.string(),
  validity: z.string(),
  scans: z.nullable(z.number()),
  maxFileBytes: z.number(),
  downloads: z.boolean(),
  reactions: z.boolean(),
  popular: z.boolean(),
  features: z.array(z.string()),
});
export type PlanView = z.infer<typeof PlanView>;

// GET /api/plans?country=XX → the region's price list
/** More scans for a paid gift with a scan limit, while its plan is valid (issue 40). */
export const ScanTopUpView = z.object({ scans: z.number(), price: z.string() });
export type ScanTopUpView = z.infer<typeof ScanTopUpView>;

export const PlansResponse = z.object({ region: z.enum(['IN', 'US']), plans: z.array(PlanView), scanTopUp: ScanTopUpView });
export type PlansResponse = z.infer<typeof PlansResponse>;
