import { API } from '@giftlens/contract/routes';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { SenderSignIn } from './sender-sign-in.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

function renderSignIn() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <SenderSignIn title="My Gifts" intro="Verify your e-mail to see the gifts you sent." onSignedIn={vi.fn()} />
    </QueryClientProvider>,
  );
}

describe('SenderSignIn (Chromium)', () => {
  test('the code step, loaded only once the e-mail step is used, opens with focus on its first box', async () => {
    const fetch = vi.spyOn(window, 'fetch').mockResolvedValue(Response.json({ success: true, resendAfter: 60 }));
    const screen = await renderSignIn();
    await userEvent.fill(screen.getByLabelText('Email address'), 'ana@example.com');
    await userEvent.keyboard('{Enter}');

    await expect.element(screen.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    await expect.element(screen.getByText('ana@example.com')).toBeVisible();
    await expect.element(screen.getByLabelText('Digit 1 of 6')).toHaveFocus();
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0]?.[0]).toBe(API.sendEmail);

    // Back to the e-mail step: the address typed is kept.
    await userEvent.click(screen.getByRole('button', { name: 'Use a different e-mail' }));
    await expect.element(screen.getByRole('heading', { name: 'My Gifts' })).toBeVisible();
    await expect.element(screen.getByLabelText('Email address')).toHaveValue('ana@example.com');
  });
});
