import type { PhotoQuality } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import type { PhotoCheck } from '../hooks/use-photo-check.ts';
import { PhotoCheckPanel } from './photo-check-panel.tsx';
import { chooseFile } from '../../../test/choose-file.ts';

const GIFT_ID = 'a1b2c3d4e5f6a7b8a1b2c3d4e5f6a7b8';
const plainPhoto: PhotoQuality = { recognisable: false, score: 0.05, rating: 1, reasons: ['plain'], message: 'too little detail' };
const goodPhoto: PhotoQuality = { recognisable: true, score: 0.9, rating: 5, reasons: [] };

/** The panel with its check kept in state, as the wizard keeps it. */
function Stateful({ initial }: { initial: PhotoCheck }) {
  const [check, setCheck] = useState(initial);
  return <PhotoCheckPanel giftId={GIFT_ID} check={check} onChange={setCheck} />;
}

function renderPanel(initial: PhotoCheck) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Stateful initial={initial} />
    </QueryClientProvider>,
  );
}

const answer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('PhotoCheckPanel (Chromium)', () => {
  test('a low rating says why; another angle is posted and the rating updates', async () => {
    const fetch = vi.spyOn(window, 'fetch').mockResolvedValue(answer({ success: true, quality: goodPhoto, photoCount: 2, lookalike: false }));
    const s = await renderPanel({ quality: plainPhoto, lookalike: false, photoCount: 1 });
    await expect.element(s.getByText('Recognisability 1/5')).toBeVisible();
    await expect.element(s.getByText(texts.sender.qualityReasons.plain)).toBeVisible();
    await expect.element(s.getByText(texts.sender.addAnotherAngleAdvice)).toBeVisible();
    await expect.element(s.getByText(texts.sender.lookalikeWarning)).not.toBeInTheDocument();

    const picker = s.getByLabelText(texts.sender.anotherAngleFile);
    await expect.element(picker).toHaveAttribute('accept', 'image/*');
    chooseFile(picker.element() as HTMLInputElement, new File([new Uint8Array(2000)], 'side.jpg', { type: 'image/jpeg' }));

    await expect.element(s.getByText('Recognisability 5/5')).toBeVisible();
    await expect.element(s.getByText(texts.sender.qualityReasons.plain)).not.toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe(`/api/gift-sender/gifts/${GIFT_ID}/photos`);
    expect(init?.method).toBe('POST');
    expect((init?.body as FormData).get('giftImage')).toBeInstanceOf(File);
  });

  test('a well-rated photo whose detail is one logo says what to photograph, and offers another angle', async () => {
    const logo: PhotoQuality = { recognisable: true, score: 0.7, rating: 5, reasons: ['concentrated'] };
    const s = await renderPanel({ quality: logo, lookalike: false, photoCount: 1 });
    await expect.element(s.getByText('Recognisability 5/5')).toBeVisible();
    await expect.element(s.getByText(texts.sender.qualityReasons.concentrated)).toBeVisible();
    await expect.element(s.getByText(texts.sender.recognisabilityLow)).not.toBeInTheDocument();
    await expect.element(s.getByRole('button', { name: texts.sender.addAnotherAngle })).toBeVisible();
  });

  test('a file that is not an image is refused without a request', async () => {
    const fetch = vi.spyOn(window, 'fetch');
    const s = await renderPanel({ quality: plainPhoto, lookalike: false, photoCount: 1 });
    chooseFile(s.getByLabelText(texts.sender.anotherAngleFile).element() as HTMLInputElement, new File(['%PDF'], 'a.pdf', { type: 'application/pdf' }));
    await expect.element(s.getByRole('alert')).toHaveTextContent(texts.sender.giftImageInvalid);
    expect(fetch).not.toHaveBeenCalled();
  });

  test('the server’s refusal is shown, and the rating stays', async () => {
    vi.spyOn(window, 'fetch').mockResolvedValue(answer({ error: texts.sender.tooManyGiftImages }, 400));
    const s = await renderPanel({ quality: plainPhoto, lookalike: false, photoCount: 2 });
    chooseFile(s.getByLabelText(texts.sender.anotherAngleFile).element() as HTMLInputElement, new File([new Uint8Array(100)], 'b.jpg', { type: 'image/jpeg' }));
    await expect.element(s.getByRole('alert')).toHaveTextContent(texts.sender.tooManyGiftImages);
    await expect.element(s.getByText('Recognisability 1/5')).toBeVisible();
  });

  test('a look-alike is warned about; a good rating shows no reasons', async () => {
    const s = await renderPanel({ quality: goodPhoto, lookalike: true, photoCount: 1 });
    await expect.element(s.getByText(texts.sender.lookalikeWarning)).toBeVisible();
    await expect.element(s.getByText('Recognisability 5/5')).toBeVisible();
    await expect.element(s.getByText(texts.sender.recognisabilityLow)).not.toBeInTheDocument();
    await expect.element(s.getByRole('button', { name: texts.sender.addAnotherAngle })).toBeVisible();
  });

  test('with three photos there is no button, only the limit', async () => {
    const s = await renderPanel({ quality: plainPhoto, lookalike: false, photoCount: 3 });
    await expect.element(s.getByText(texts.sender.maxPhotosReached)).toBeVisible();
    await expect.element(s.getByRole('button', { name: texts.sender.addAnotherAngle })).not.toBeInTheDocument();
  });
});
