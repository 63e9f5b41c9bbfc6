import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { renderRoute } from '../../test/render-route.tsx';
import { PrintCard } from './print-card.tsx';

const giftId = '0123456789abcdef0123456789abcdef';
const link = `https://giftlens.example/sharelink/${giftId}`;

async function printCard() {
  const { screen } = await renderRoute(
    {
      path: '/share',
      element: (
        <PrintCard
          giftId={giftId}
          recipientName="Maya"
          occasion="birthday"
          backupCode="12345678"
          link={link}
        />
      ),
    },
    '/share',
  );
  return screen;
}

describe('Print a card for the box (issue 40)', () => {
  it('opens by keyboard to a preview in English, then in Hindi, with the PDF in the chosen language', async () => {
    const screen = await printCard();
    const offer = screen.getByRole('button', { name: 'Print a card for the box' });
    await expect.element(offer).toHaveAttribute('aria-expanded', 'false');
    await userEvent.tab();
    await expect.element(offer).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect.element(offer).toHaveAttribute('aria-expanded', 'true');

    const preview = screen.getByTestId('card-preview');
    await expect.element(preview).toBeVisible();
    await expect.element(preview).toHaveAttribute('lang', 'en');
    await expect.element(preview).toHaveTextContent('For Maya');
    await expect.element(preview).toHaveTextContent('Birthday');
    await expect.element(preview).toHaveTextContent('1. Open this link or type it');
    await expect.element(preview).toHaveTextContent('Backup code: 1234 5678');
    await expect.element(screen.getByRole('img', { name: 'QR code of the gift’s link' })).toBeVisible();
    const pdf = screen.getByRole('link', { name: 'Download the PDF to print' });
    await expect.element(pdf).toHaveAttribute('href', `/api/gift-sender/gifts/${giftId}/card.pdf?lang=en`);

    // The language chooser by keyboard: Tab to the checked radio, arrow to the next.
    await userEvent.tab();
    await expect.element(screen.getByRole('radio', { name: 'English' })).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    await expect.element(screen.getByRole('radio', { name: 'हिन्दी (Hindi)' })).toBeChecked();
    await expect.element(preview).toHaveAttribute('lang', 'hi');
    await expect.element(preview).toHaveTextContent('Maya के लिए');
    await expect.element(preview).toHaveTextContent('जन्मदिन');
    await expect.element(preview).toHaveTextContent('बैकअप कोड: 1234 5678');
    await expect.element(pdf).toHaveAttribute('href', `/api/gift-sender/gifts/${giftId}/card.pdf?lang=hi`);
  });

  it('has no code line without a code', async () => {
    const { screen } = await renderRoute(
      {
        path: '/share',
        element: (
          <PrintCard giftId={giftId} recipientName="Maya" occasion="birthday" backupCode={null} link={link} />
        ),
      },
      '/share',
    );
    await screen.getByRole('button', { name: 'Print a card for the box' }).click();
    await expect.element(screen.getByTestId('card-preview')).toBeVisible();
    await expect.element(screen.getByTestId('card-preview')).not.toHaveTextContent('Backup code');
  });
});
