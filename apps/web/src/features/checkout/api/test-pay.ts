import { texts } from '@giftlens/contract/texts';
import { TestPayResponse } from '@giftlens/contract/payments';
import { API } from '@giftlens/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST test-checkout/pay: the built-in test provider answers like Razorpay's checkout handler. */
export function testPay(orderId: string) {
  return apiRequest('POST', API.testPay, { orderId }, { fallbackError: texts.sender.generic, schema: TestPayResponse });
}

export function useTestPay() {
  return useMutation({ mutationFn: testPay });
}
