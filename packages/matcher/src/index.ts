/**
 * @giftlens/matcher — "does this photo show that gift?", decided from local features and geometry.
 * Import from '@giftlens/matcher/index'.
 */
export { MatcherError, type MatcherErrorCode } from './errors.ts';
export { MOVE_CLOSER_BELOW, REFERENCE_RECIPE } from './config.ts';
export { enrol, type EnrolResult } from './enrol.ts';
export { match, referencesMatch, type MatchDecision } from './engine.ts';
export {
  createMatcherPool,
  type KeyedReference,
  type MatcherPool,
  type MatcherPoolOptions,
  type PoolStats,
  type ReferenceInput,
  type ReferenceLoader,
  threadpoolSize,
  threadpoolWanted,
} from './pool.ts';
export { QUALITY_REASONS, type QualityReason, type QualityReport, type RatedQuality } from './quality.ts';
