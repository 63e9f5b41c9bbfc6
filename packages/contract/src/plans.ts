import { DEFAULT_MESSAGE_LIMIT_BYTES, LIFETIME_MESSAGE_LIMIT_BYTES } from './constants.ts';

export type Region = 'IN' | 'US';
export type Currency = 'INR' | 'USD';
export type PlanId = 'basic_in' | 'premium_in' | 'lifetime_in' | 'premium_us' | 'lifetime_us';

export interface Plan {
  id: PlanId;
  region: Region;
  name: 'Basic' | 'Premium' | 'Lifetime';
  subtitle: string;
  /** Price in the currency's minor unit (paise, cents). The server owns prices; clients only display them. */
  amountMinor: number;
  currency: Currency;
  /** Display price, e.g. "₹99" or "$1.99". */
  price: string;
  /** Display validity, e.g. "24 hours". */
  validity: string;
  /** Validity in milliseconds from payment; null = never expires. */
  validityMs: number | null;
  /** Scans allowed; null = unlimited. */
  scans: number | null;
  maxFileBytes: number;
  downloads: boolean;
  reactions: boolean;
  popular: boolean;
  features: string[];
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export const PLANS: readonly Plan[] = [
  {
    id: 'basic_in', region: 'IN', name: 'Basic', subtitle: 'For a single special moment',
    amountMinor: 2900, currency: 'INR', price: '₹29', validity: '24 hours', validityMs: DAY, scans: 3,
    maxFileBytes: DEFAULT_MESSAGE_LIMIT_BYTES, downloads: false, reactions: false, popular: false,
    features: ['Valid for 24 hours', '3 scans', 'Video or voice up to 30MB', 'No downloads'],
  },
  {
    id: 'premium_in', region: 'IN', name: 'Premium', subtitle: 'Our most loved plan',
    amountMinor: 9900, currency: 'INR', price: '₹99', validity: '30 days', validityMs: 30 * DAY, scans: 10,
    maxFileBytes: DEFAULT_MESSAGE_LIMIT_BYTES, downloads: true, reactions: false, popular: true,
    features: ['Valid for 30 days', '10 scans', 'Video or voice up to 30MB', 'Download your message', 'Group gift: up to 10 contributors'],
  },
  {
    id: 'lifetime_in', region: 'IN', name: 'Lifetime', subtitle: 'A keepsake that never expires',
    amountMinor: 29900, currency: 'INR', price: '₹299', validity: 'Lifetime', validityMs: null, scans: null,
    maxFileBytes: LIFETIME_MESSAGE_LIMIT_BYTES, downloads: true, reactions: true, popular: false,
    features: ['Never expires', 'Unlimited scans', 'Video or voice up to 50MB', 'Download your message and the reaction', 'Reaction recording', 'Group gift: up to 50 contributors'],
  },
  {
    id: 'premium_us', region: 'US', name: 'Premium', subtitle: 'Our most loved plan',
    amountMinor: 199, currency: 'USD', price: '$1.99', validity: '30 days', validityMs: 30 * DAY, scans: 10,
    maxFileBytes: DEFAULT_MESSAGE_LIMIT_BYTES, downloads: true, reactions: false, popular: true,
    features: ['Valid for 30 days', '10 scans', 'Video or voice up to 30MB', 'Download your message', 'Group gift: up to 10 contributors'],
  },
  {
    id: 'lifetime_us', region: 'US', name: 'Lifetime', subtitle: 'A keepsake that never expires',
    amountMinor: 299, currency: 'USD', price: '$2.99', validity: 'Lifetime', validityMs: null, scans: null,
    maxFileBytes: LIFETIME_MESSAGE_LIMIT_BYTES, downloads: true, reactions: true, popular: false,
    features: ['Never expires', 'Unlimited scans', 'Video or voice up to 50MB', 'Download your message and the reaction', 'Reaction recording', 'Group gift: up to 50 contributors'],
  },
];

export const PLAN_IDS = PLANS.map((p) => p.id) as [PlanId, ...PlanId[]];

/** India has its own price list; every other (or unknown) country uses the US list. */
export function regionForCountry(countryCode: string | null | undefined): Region {
  return countryCode?.toUpperCase() === 'IN' ? 'IN' : 'US';
}

export function plansForRegion(region: Region): Plan[] {
  return PLANS.filter((p) => p.region === region);
}

export function findPlan(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

/** "50 MB" style label used in the size-limit message. */
export function formatLimit(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))}MB`;
}

/**
 * A file's size in megabytes with two decimals, as the size-limit message shows it ("31.42"): rounded up, so a
 * file over a limit never reads as the limit itself ("30.00" for 30 MB and one byte would contradict the message).
 */
export function formatFileMegabytes(bytes: number): string {
  return (Math.ceil((bytes / (1024 * 1024)) * 100) / 100).toFixed(2);
}
