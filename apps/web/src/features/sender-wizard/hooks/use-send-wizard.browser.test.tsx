import { afterEach, describe, expect, test, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { jsonResponse } from '../../../test/render-route.tsx';
import { serveJson } from '../../../test/serve-json.ts';
import { useSendWizard } from './use-send-wizard.ts';

// Issue 37, item 15: "Send a new gift" from My Gifts asked a signed-in sender for a new e-mail code.
function Step() {
  const { state } = useSendWizard({});
  return <p data-testid="step">{`${state.currentStep} ${state.email}`}</p>;
}

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('a fresh sender wizard (Chromium)', () => {
  test('a signed-in sender starts at the plans, with their address, and no code is asked for', async () => {
    const fetch = serveJson({ 'GET /api/gift-sender/me': () => jsonResponse({ success: true, email: 'asha@example.com', firstName: 'Asha' }) });
    const screen = await render(<Step />);
    await expect.element(screen.getByTestId('step')).toHaveTextContent('pricing asha@example.com');
    expect(fetch.mock.calls.map(([input]) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url))).toEqual(['/api/gift-sender/me']);
  });

  test('a signed-in sender without a name starts at the name step', async () => {
    serveJson({ 'GET /api/gift-sender/me': () => jsonResponse({ success: true, email: 'bo@example.com', firstName: null }) });
    const screen = await render(<Step />);
    await expect.element(screen.getByTestId('step')).toHaveTextContent('userDetails bo@example.com');
  });

  test('nobody signed in: the e-mail step, as before', async () => {
    const fetch = serveJson({ 'GET /api/gift-sender/me': () => jsonResponse({ success: false, error: 'Session expired. Please start over.', code: 'unauthorized' }, 401) });
    const screen = await render(<Step />);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await expect.element(screen.getByTestId('step')).toHaveTextContent(/^email$/);
  });
});
