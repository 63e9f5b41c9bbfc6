import { M } from '@giftlens/contract/messages';
import { GeoResponse } from '@giftlens/contract/plans-api';
import { API } from '@giftlens/contract/routes';
import { apiRequest } from '../../../lib/api-client.ts';

export function getGeo(signal?: AbortSignal) {
  return apiRequest('GET', API.geo, undefined, { fallbackError: M.generic, schema: GeoResponse, signal });
}
