import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { MessageStep } from './message-step.tsx';
import { chooseFile } from '../../../test/choose-file.ts';
import type { PlanId } from '@giftlens/contract/plans';
import { texts } from '@giftlens/contract/texts';

const GIFT_ID = 'a1b2c3d4e5f6a7b8';
const MB = 1024 * 1024;

function renderStep(onContinue = vi.fn<(giftId: string) => void>(), planId: PlanId = 'premium_in') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return {
    onContinue,
    screen: render(
      <QueryClientProvider client={client}>
        <MessageStep giftId={GIFT_ID} planId={planId} planName={null} onContinue={onContinue} />
      </QueryClientProvider>,
    ),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('MessageStep (Chromium)', () => {
  test('focus follows the recording: Stop once it records, then the preview’s button, never the page', async () => {
    const { screen } = renderStep();
    const start = (await screen).getByRole('button', { name: 'Start recording' });
    (start.element() as HTMLButtonElement).focus();
    await userEvent.keyboard('{Enter}');
    const stop = (await screen).getByRole('button', { name: 'Stop recording' });
    await expect.element(stop).toBeEnabled();
    await expect.element(stop).toHaveFocus();
    // A second recorded, on the recorder's own clock.
    await expect.element((await screen).getByRole('timer', { name: 'Recording time' })).toHaveTextContent('00:01');
    await userEvent.keyboard('{Enter}');
    await expect.element((await screen).getByLabelText('Message preview')).toBeInTheDocument();
    await expect.element((await screen).getByRole('button', { name: 'Upload Again' })).toHaveFocus();
  });

  test('a file that is not a video is refused with the spec message, and the input is cleared', async () => {
    const { screen } = renderStep();
    const input = (await screen).getByLabelText('Upload video file');
    await expect.element(input).toHaveAttribute('accept', 'video/mp4,video/quicktime,video/webm,video/x-msvideo,video/avi,.mp4,.mov,.webm,.avi');
    chooseFile(input.element() as HTMLInputElement, new File(['%PDF-1.4'], 'notes.pdf', { type: 'application/pdf' }));
    await expect.element((await screen).getByRole('alert')).toHaveTextContent('This file type is not supported. Please upload a video or audio file.');
    expect((input.element() as HTMLInputElement).value).toBe('');
    await expect.element((await screen).getByLabelText('Message preview')).not.toBeInTheDocument();
  });

  test('the Lifetime plan shows its bonus note on the message step; Premium does not', async () => {
    const lifetime = await renderStep(undefined, 'lifetime_in').screen;
    await expect.element(lifetime.getByText(texts.sender.lifetimeBonus)).toBeVisible();
    await lifetime.unmount();
    const premium = await renderStep(undefined, 'premium_us').screen;
    await expect.element(premium.getByRole('heading', { name: 'Add Your Personal Message' })).toBeVisible();
    await expect.element(premium.getByText(texts.sender.lifetimeBonus)).not.toBeInTheDocument();
  });

  test('a file over the plan limit is refused with the plan, the limit and its own size', async () => {
    const { screen } = renderStep();
    const input = (await screen).getByLabelText('Upload video file');
    chooseFile(input.element() as HTMLInputElement, new File([new Uint8Array(31.5 * MB)], 'long.mp4', { type: 'video/mp4' }));
    await expect
      .element((await screen).getByRole('alert'))
      .toHaveTextContent('File size too large! Your Premium plan allows files up to 30MB. Your file is 31.50MB.');
    expect((input.element() as HTMLInputElement).value).toBe('');
  });

  test('an untyped .mov within the limit is taken by its extension and previewed', async () => {
    const { screen } = renderStep();
    const input = (await screen).getByLabelText('Upload video file');
    chooseFile(input.element() as HTMLInputElement, new File([new Uint8Array(2 * MB)], 'birthday.mov', { type: '' }));
    await expect.element((await screen).getByLabelText('Message preview')).toBeVisible();
    await expect.element((await screen).getByText('birthday.mov')).toBeVisible();
    await expect.element((await screen).getByText('2.00MB')).toBeVisible();
    await expect.element((await screen).getByRole('alert')).not.toBeInTheDocument();
  });

  test('the text tab asks for a message, then saves the trimmed text and goes on', async () => {
    const fetch = vi
      .spyOn(window, 'fetch')
      .mockResolvedValue(new Response(JSON.stringify({ success: true }), { status: 200, headers: { 'content-type': 'application/json' } }));
    const { screen, onContinue } = renderStep();
    const s = await screen;
    await s.getByRole('tab', { name: 'Text Message' }).click();
    await expect.element(s.getByRole('tab', { name: 'Text Message' })).toHaveAttribute('aria-selected', 'true');

    await s.getByRole('button', { name: 'Continue to Checkout' }).click();
    await expect.element(s.getByRole('alert')).toHaveTextContent('Please record or upload a message first.');
    expect(fetch).not.toHaveBeenCalled();

    await userEvent.fill(s.getByLabelText('Your message'), '  Happy birthday, Ravi!  ');
    await expect.element(s.getByText('25/2000')).toBeVisible();
    await s.getByRole('button', { name: 'Continue to Checkout' }).click();
    await vi.waitFor(() => expect(onContinue).toHaveBeenCalledWith(GIFT_ID));
    expect(onContinue).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/gift-sender/save-text-message');
    expect(init?.method).toBe('POST');
    expect(typeof init?.body).toBe('string');
    expect(JSON.parse(init?.body as string)).toEqual({ giftId: GIFT_ID, text: 'Happy birthday, Ravi!' });
  });

  test('a refused save shows the server message and stays on the step', async () => {
    vi.spyOn(window, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ success: false, error: 'Gift not found' }), { status: 404, headers: { 'content-type': 'application/json' } }),
    );
    const { screen, onContinue } = renderStep();
    const s = await screen;
    await s.getByRole('tab', { name: 'Text Message' }).click();
    await userEvent.fill(s.getByLabelText('Your message'), 'Hello');
    await s.getByRole('button', { name: 'Continue to Checkout' }).click();
    await expect.element(s.getByRole('alert')).toHaveTextContent('Gift not found');
    await expect.element(s.getByRole('button', { name: 'Continue to Checkout' })).toBeEnabled();
    expect(onContinue).not.toHaveBeenCalled();
  });
});
