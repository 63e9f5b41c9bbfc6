import type { Contribution, GroupState, Invitation } from '@giftlens/contract/group-gifts';
import { groupTexts } from '@giftlens/contract/group-gifts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { jsonResponse } from '../../../test/render-route.tsx';
import { sentBody, serveJson as serve } from '../../../test/serve-json.ts';
import { OrganizerPanel } from './organizer-panel.tsx';

const GIFT = '0123456789abcdef0123456789abcdef';
const BASE = `/api/gift-sender/gifts/${GIFT}`;

const group = (over: Partial<GroupState> = {}): GroupState => ({
  open: true,
  deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  closedAt: null,
  inviteUrl: 'http://localhost/contribute/shared-link-token',
  contributorLimit: 10,
  invitedCount: 2,
  contributedCount: 2,
  combined: { state: 'none', downloadUrl: null },
  ...over,
});
const invitation = (id: string, email: string, state: Invitation['state']): Invitation => ({
  id,
  email,
  state,
  viaSharedLink: false,
  createdAt: new Date().toISOString(),
});
const contribution = (id: string, name: string, position: number, over: Partial<Contribution> = {}): Contribution => ({
  id,
  name,
  messageType: 'text',
  state: 'ready',
  position,
  messageUrl: null,
  posterUrl: null,
  text: `Happy birthday from ${name}`,
  email: `${name.toLowerCase()}@example.com`,
  createdAt: new Date().toISOString(),
  ...over,
});

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <OrganizerPanel giftId={GIFT} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('OrganizerPanel (Chromium)', () => {
  const asha = contribution('c1', 'Asha', 1);
  const ravi = contribution('c2', 'Ravi', 2, { messageType: 'video', text: null, messageUrl: '/media/ravi.mp4' });
  const invitations = [invitation('i1', 'asha@example.com', 'contributed'), invitation('i2', 'ravi@example.com', 'contributed')];

  test('shows how many added, the invitations and the messages in order, and moves one down', async () => {
    const fetch = serve({
      [`GET ${BASE}/invitations`]: () => jsonResponse({ success: true, invitations, group: group() }),
      [`GET ${BASE}/contributions`]: () => jsonResponse({ success: true, contributions: [asha, ravi], group: group() }),
      [`PATCH ${BASE}/contributions/c1`]: () =>
        jsonResponse({ success: true, contributions: [{ ...ravi, position: 1 }, { ...asha, position: 2 }], group: group() }),
    });
    const screen = await renderPanel();
    await expect.element(screen.getByText('2 of 2 added')).toBeVisible();
    await expect.element(screen.getByRole('region', { name: 'Invited' }).getByText('asha@example.com')).toBeVisible();
    await expect.element(screen.getByRole('region', { name: 'Invited' }).getByText('Added').first()).toBeVisible();
    const items = () => screen.getByRole('heading', { level: 4 }).elements().map((e) => e.textContent);
    expect(items()).toEqual(['1.From Asha', '2.From Ravi']);
    await expect.element(screen.getByText('Happy birthday from Asha')).toBeVisible();
    await expect.element(screen.getByLabelText('Video message from Ravi')).toHaveAttribute('src', '/media/ravi.mp4');
    await expect.element(screen.getByRole('button', { name: 'Move Asha up' })).toBeDisabled();

    await screen.getByRole('button', { name: 'Move Asha down' }).click();
    await vi.waitFor(() => expect(items()).toEqual(['1.From Ravi', '2.From Asha']));
    expect(sentBody(fetch, 'PATCH')).toEqual({ position: 2 });
  });

  test('invites several addresses with the deadline, after refusing one that is not an address', async () => {
    let invited = 0;
    const fetch = serve({
      [`GET ${BASE}/invitations`]: () => jsonResponse({ success: true, invitations: [], group: group({ deadline: null, invitedCount: invited, contributedCount: 0 }) }),
      [`GET ${BASE}/contributions`]: () => jsonResponse({ success: true, contributions: [], group: group({ deadline: null, invitedCount: invited, contributedCount: 0 }) }),
      [`POST ${BASE}/invitations`]: () => {
        invited = 2;
        return jsonResponse({ success: true, invitations: [], group: group({ invitedCount: 2, contributedCount: 0 }) });
      },
    });
    const screen = await renderPanel();
    await expect.element(screen.getByText('0 of 0 added')).toBeVisible();
    const deadline = screen.getByLabelText('Contributions close').element() as HTMLInputElement;
    // Three days from now by default, to the minute.
    expect(Math.abs(new Date(deadline.value).getTime() - (Date.now() + 3 * 86_400_000))).toBeLessThan(120_000);

    await userEvent.fill(screen.getByLabelText('E-mail addresses'), 'asha@example.com, ravi');
    await screen.getByRole('button', { name: 'Send invitations' }).click();
    await expect.element(screen.getByRole('alert')).toHaveTextContent('Please check these addresses: ravi');
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await userEvent.fill(screen.getByLabelText('E-mail addresses'), 'asha@example.com\nravi@example.com');
    await screen.getByRole('button', { name: 'Send invitations' }).click();
    await expect.element(screen.getByText('0 of 2 added')).toBeVisible();
    const body = sentBody(fetch, 'POST') as { emails: string[]; deadline: string };
    expect(body.emails).toEqual(['asha@example.com', 'ravi@example.com']);
    expect(new Date(body.deadline).getTime()).toBe(new Date(deadline.value).getTime());
  });

  test('removes a message only after the confirmation, and closes contributions', async () => {
    let open = true;
    let list = [asha];
    const fetch = serve({
      [`GET ${BASE}/invitations`]: () => jsonResponse({ success: true, invitations, group: group({ open }) }),
      [`GET ${BASE}/contributions`]: () => jsonResponse({ success: true, contributions: list, group: group({ open }) }),
      [`DELETE ${BASE}/contributions/c1`]: () => {
        list = [];
        return jsonResponse({ success: true });
      },
      [`POST ${BASE}/contributions/close`]: () => {
        open = false;
        return jsonResponse({ success: true, group: group({ open }) });
      },
    });
    const screen = await renderPanel();
    await screen.getByRole('button', { name: 'Remove Asha’s message' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Remove this message?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    await screen.getByRole('button', { name: 'Remove Asha’s message' }).click();
    await screen.getByRole('dialog', { name: 'Remove this message?' }).getByRole('button', { name: 'Remove' }).click();
    await expect.element(screen.getByText('No messages yet.')).toBeVisible();

    await screen.getByRole('button', { name: 'Close contributions now' }).click();
    await screen.getByRole('dialog', { name: 'Close contributions now?' }).getByRole('button', { name: 'Close now' }).click();
    await expect.element(screen.getByText(groupTexts.organizerClosed)).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Send invitations' })).not.toBeInTheDocument();
  });

  test('takes an invitee’s place back and makes a new shared link, each after a confirmation, by keyboard at 360 px (issue 37)', async () => {
    await page.viewport(360, 740);
    let people = [invitation('i1', 'asha@example.com', 'contributed'), invitation('i2', 'ravi.kumar.long.address@example.com', 'invited')];
    let inviteUrl = 'http://localhost/contribute/shared-link-token';
    const state = () => group({ inviteUrl, invitedCount: people.length, contributedCount: 1 });
    const fetch = serve({
      [`GET ${BASE}/invitations`]: () => jsonResponse({ success: true, invitations: people, group: state() }),
      [`GET ${BASE}/contributions`]: () => jsonResponse({ success: true, contributions: [asha], group: state() }),
      [`DELETE ${BASE}/invitations/i2`]: () => {
        people = people.filter((p) => p.id !== 'i2');
        return jsonResponse({ success: true, group: state() });
      },
      [`POST ${BASE}/shared-link`]: () => {
        inviteUrl = 'http://localhost/contribute/a-new-shared-token';
        return jsonResponse({ success: true, group: state() });
      },
    });
    const sent = (method: string) => fetch.mock.calls.filter(([, init]) => init?.method === method).map(([input]) => input);
    const screen = await renderPanel();
    const invited = screen.getByRole('region', { name: 'Invited' });
    const removeRavi = invited.getByRole('button', { name: 'Remove ravi.kumar.long.address@example.com' });
    await expect.element(removeRavi).toBeVisible();
    // Nothing is wider than the phone's screen.
    const root = screen.container.firstElementChild as HTMLElement;
    expect(root.scrollWidth).toBeLessThanOrEqual(root.clientWidth);
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(360);

    // By keyboard: Enter opens the confirmation; Escape leaves everything as it was, focus back on the button.
    (removeRavi.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Remove this person?' });
    await expect.element(dialog).toHaveTextContent('ravi.kumar.long.address@example.com can no longer add a message: their invitation link stops working.');
    await userEvent.keyboard('{Escape}');
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(removeRavi).toHaveFocus();
    expect(sent('DELETE')).toEqual([]);

    // Again, and Remove: the invitation goes (their link stops on the server), focus on the list they were in.
    await userEvent.keyboard('{Enter}');
    await expect.element(screen.getByRole('dialog', { name: 'Remove this person?' }).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.tab();
    await expect.element(screen.getByRole('dialog', { name: 'Remove this person?' }).getByRole('button', { name: 'Remove' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect.element(invited.getByText('ravi.kumar.long.address@example.com')).not.toBeInTheDocument();
    expect(sent('DELETE')).toEqual([`${BASE}/invitations/i2`]);
    await expect.element(screen.getByRole('heading', { name: 'Invited' })).toHaveFocus();
    await expect.element(invited.getByText('asha@example.com')).toBeVisible();
    // Someone who added a message is told it goes with them.
    await invited.getByRole('button', { name: 'Remove asha@example.com' }).click();
    await expect
      .element(screen.getByRole('dialog', { name: 'Remove this person?' }))
      .toHaveTextContent('asha@example.com can no longer add a message: their invitation link stops working, and the message they added is removed.');
    await userEvent.keyboard('{Escape}');

    // A new shared link: the old one stops; the page shows the new one.
    const newLink = screen.getByRole('button', { name: 'Make a new link (the old one stops)' });
    (newLink.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    const rotate = screen.getByRole('dialog', { name: 'Make a new invitation link?' });
    await expect.element(rotate).toHaveTextContent('The current shared link stops working at once.');
    await userEvent.tab();
    await expect.element(rotate.getByRole('button', { name: 'Make a new link' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect.element(screen.getByLabelText('Or share one invitation link (WhatsApp, a group chat)')).toHaveValue('http://localhost/contribute/a-new-shared-token');
    expect(sent('POST')).toEqual([`${BASE}/shared-link`]);
    await expect.element(screen.getByLabelText('Or share one invitation link (WhatsApp, a group chat)')).toHaveFocus();
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(360);
  });

  test('offers the combined video once it is made', async () => {
    const done = group({ open: false, combined: { state: 'ready', downloadUrl: '/media/combined.mp4?sig=1' } });
    serve({
      [`GET ${BASE}/invitations`]: () => jsonResponse({ success: true, invitations, group: done }),
      [`GET ${BASE}/contributions`]: () => jsonResponse({ success: true, contributions: [asha], group: done }),
    });
    const screen = await renderPanel();
    await expect.element(screen.getByRole('link', { name: 'Download the combined video' })).toHaveAttribute('href', '/media/combined.mp4?sig=1');
  });

  test('India Basic: says group gifts are not part of the plan, from the limit or from the server’s refusal', async () => {
    serve({
      [`GET ${BASE}/invitations`]: () => jsonResponse({ success: true, invitations: [], group: group({ contributorLimit: 0 }) }),
      [`GET ${BASE}/contributions`]: () => jsonResponse({ success: true, contributions: [], group: group({ contributorLimit: 0 }) }),
    });
    const first = await renderPanel();
    await expect.element(first.getByText(groupTexts.notAllowed)).toBeVisible();
    await expect.element(first.getByRole('button', { name: 'Send invitations' })).not.toBeInTheDocument();
    await first.unmount();
    vi.restoreAllMocks();

    const refusal = () => jsonResponse({ success: false, error: groupTexts.notAllowed, code: 'group_not_allowed' }, 403);
    serve({ [`GET ${BASE}/invitations`]: refusal, [`GET ${BASE}/contributions`]: refusal });
    const second = await renderPanel();
    await expect.element(second.getByText(groupTexts.notAllowed)).toBeVisible();
    await expect.element(second.getByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });
});
