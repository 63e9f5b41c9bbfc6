import { texts } from '@giftlens/contract/texts';
import { describe, expect, test } from 'vitest';
import { userEvent } from 'vitest/browser';
import { paths } from '../../../config/paths.ts';
import { renderRoute } from '../../../test/render-route.tsx';
import { GiftNotReadyPage } from './gift-not-ready-page.tsx';

// Issue 37, item 16: a recipient whose address has no gift ready (a typing mistake, often) is offered another
// address, not only Back to Home.
describe('/gift-not-ready after the e-mail code', () => {
  test('offers another e-mail address (back to /scan) as well as going home', async () => {
    const { screen } = await renderRoute(
      { path: paths.giftNotReady.pattern, element: <GiftNotReadyPage /> },
      { pathname: paths.giftNotReady.href(), state: { reason: texts.recipient.noGiftsForEmail } },
    );
    await expect.element(screen.getByText(texts.recipient.noGiftsForEmail)).toBeVisible();
    await expect.element(screen.getByRole('link', { name: 'Back to Home' })).toBeVisible();
    await userEvent.click(screen.getByRole('link', { name: 'Try another e-mail address' }));
    await expect.element(screen.getByTestId('elsewhere')).toHaveTextContent(paths.scan.href());
  });
});
