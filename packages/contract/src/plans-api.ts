import { z } from 'zod';

// GET /api/plans?country=XX
export const PlansQuery = z.object({ country: z.string().length(2).optional() });

// GET /api/geo
export const GeoResponse = z.object({ countryCode: z.string().length(2).nullable(), source: z.string() });
export type GeoResponse = z.infer<typeof GeoResponse>;
