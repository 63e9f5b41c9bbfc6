import type { ContributionPageResponse, OwnContribution } from '@giftlens/contract/group-gifts';
import { groupTexts } from '@giftlens/contract/group-gifts';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { paths } from '../../config/paths.ts';
import { jsonResponse, renderRoute } from '../../test/render-route.tsx';
import { sentBody, serveJson } from '../../test/serve-json.ts';
import { ContributeRoute } from './contribute-route.tsx';

// The contributor's page as the app composes it: the group-gift page with the message step's own recorder.
const TOKEN = 'a'.repeat(43);
const OWN_TOKEN = 'b'.repeat(43);
const API = `/api/contributions/${TOKEN}`;
const route = { path: paths.contribute.pattern, element: <ContributeRoute /> };

const pageOf = (over: Partial<ContributionPageResponse> = {}): ContributionPageResponse => ({
  success: true,
  recipientName: 'Priya',
  organizerName: 'Meera',
  occasion: 'Birthday',
  deadline: new Date(2030, 0, 2, 18, 30).toISOString(),
  open: true,
  shared: false,
  email: 'asha@example.com',
  maxFileBytes: 30 * 1024 * 1024,
  planName: 'Premium',
  mine: null,
  ...over,
});
const mineOf = (over: Partial<OwnContribution> = {}): OwnContribution => ({
  id: 'c1',
  name: 'Asha',
  messageType: 'text',
  state: 'ready',
  error: null,
  messageUrl: null,
  posterUrl: null,
  text: 'Happy birthday, Priya!',
  notifyWhenOpened: true,
  ...over,
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('/contribute/:token (Chromium)', () => {
  test('shows the gift, asks for a name, saves a text with the opened notice, then deletes it', async () => {
    const fetch = serveJson({
      [`GET ${API}`]: () => jsonResponse(pageOf()),
      [`POST ${API}/text`]: () => jsonResponse({ success: true, mine: mineOf() }),
      [`DELETE ${API}`]: () => jsonResponse({ success: true }),
    });
    const { screen } = await renderRoute(route, paths.contribute.href(TOKEN));
    await expect.element(screen.getByRole('heading', { name: 'Add your message for Priya' })).toBeVisible();
    await expect.element(screen.getByText('Birthday', { exact: true })).toBeVisible();
    await expect.element(screen.getByText('Meera is giving Priya a gift for Birthday', { exact: false })).toBeVisible();
    await expect.element(screen.getByText('January 2, 2030', { exact: false })).toBeVisible();
    // The recorder of the sender's message step is there.
    await expect.element(screen.getByRole('button', { name: 'Start recording' })).toBeVisible();

    await screen.getByRole('tab', { name: 'Text Message' }).click();
    await userEvent.fill(screen.getByLabelText('Your message'), '  Happy birthday, Priya!  ');
    await screen.getByRole('button', { name: 'Add my message' }).click();
    await expect.element(screen.getByText(groupTexts.nameRequired)).toBeVisible();
    await expect.element(screen.getByLabelText('Your name')).toHaveFocus();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await userEvent.fill(screen.getByLabelText('Your name'), 'Asha');
    await screen.getByRole('checkbox', { name: 'Tell me when it’s opened' }).click();
    await screen.getByRole('button', { name: 'Add my message' }).click();
    await expect.element(screen.getByRole('heading', { name: 'Your message, from Asha' })).toBeVisible();
    await expect.element(screen.getByText('Happy birthday, Priya!')).toBeVisible();
    expect(sentBody(fetch, 'POST', `${API}/text`)).toEqual({ text: 'Happy birthday, Priya!', name: 'Asha', notifyWhenOpened: true });

    await screen.getByRole('button', { name: 'Delete my message' }).click();
    await screen.getByRole('dialog', { name: 'Delete your message?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.element(screen.getByRole('button', { name: 'Add my message' })).toBeVisible();
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(1);
  });

  test('a write after closing shows the server’s text and the page as closed', async () => {
    let open = true;
    serveJson({
      [`GET ${API}`]: () => jsonResponse(pageOf({ open })),
      [`POST ${API}/text`]: () => {
        open = false;
        return jsonResponse({ success: false, error: groupTexts.closed, code: 'group_closed' }, 409);
      },
    });
    const { screen } = await renderRoute(route, paths.contribute.href(TOKEN));
    await userEvent.fill(screen.getByLabelText('Your name'), 'Asha');
    await screen.getByRole('tab', { name: 'Text Message' }).click();
    await userEvent.fill(screen.getByLabelText('Your message'), 'Too late?');
    await screen.getByRole('button', { name: 'Add my message' }).click();
    await expect.element(screen.getByRole('alert')).toHaveTextContent(groupTexts.closed);
    await expect.element(screen.getByRole('button', { name: 'Add my message' })).not.toBeInTheDocument();
    await expect.element(screen.getByText('Contributions are closed', { exact: true })).toBeVisible();
  });

  test('a contribution being converted is polled until it is ready, then plays', async () => {
    let polls = 0;
    serveJson({
      [`GET ${API}`]: () => {
        polls += 1;
        const mine = mineOf({ messageType: 'video', text: null, state: polls < 2 ? 'processing' : 'ready', messageUrl: polls < 2 ? null : '/media/asha.mp4' });
        return jsonResponse(pageOf({ mine }));
      },
    });
    const { screen } = await renderRoute(route, paths.contribute.href(TOKEN));
    await expect.element(screen.getByText('Preparing your video so it plays on every phone…')).toBeVisible();
    await expect.element(screen.getByLabelText('Your video message'), { timeout: 10_000 }).toHaveAttribute('src', '/media/asha.mp4');
    await expect.element(screen.getByRole('button', { name: 'Replace my message' })).toBeVisible();
  });

  test('the shared link asks for an e-mail and its code, then goes on at the contributor’s own link', async () => {
    const fetch = serveJson({
      [`GET ${API}`]: () => jsonResponse(pageOf({ shared: true, email: null })),
      [`POST ${API}/send-code`]: () => jsonResponse({ success: true }),
      [`POST ${API}/verify`]: () => jsonResponse({ success: true, token: OWN_TOKEN }),
    });
    const { screen, router } = await renderRoute(route, paths.contribute.href(TOKEN));
    await expect.element(screen.getByRole('button', { name: 'Start recording' })).not.toBeInTheDocument();
    await userEvent.fill(screen.getByLabelText('Your e-mail'), 'kabir@example.com');
    await screen.getByRole('button', { name: 'Send me a code' }).click();
    await expect.element(screen.getByText('kabir@example.com')).toBeVisible();
    await userEvent.fill(screen.getByRole('textbox', { name: 'Digit 1 of 6' }), '123456');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(paths.contribute.href(OWN_TOKEN)));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(sentBody(fetch, 'POST', `${API}/verify`)).toEqual({ email: 'kabir@example.com', code: '123456' });
  });

  test('an unknown link says so', async () => {
    serveJson({ [`GET ${API}`]: () => jsonResponse({ success: false, error: groupTexts.linkNotFound, code: 'not_found' }, 404) });
    const { screen } = await renderRoute(route, paths.contribute.href(TOKEN));
    await expect.element(screen.getByRole('alert')).toHaveTextContent(groupTexts.linkNotFound);
  });
});
