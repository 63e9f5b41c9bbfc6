import {
  staffApi,
  staffTexts,
  type StaffGiftResponse,
  type StaffJobsResponse,
} from '@giftlens/contract/staff';
import { texts } from '@giftlens/contract/texts';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { sentBody, serveJson } from '../../../test/serve-json.ts';
import { StaffConsole } from './staff-console.tsx';

const GIFT = '0123456789abcdef0123456789abcdef';
const DELIVERY = 'dlv_1';
const ME = { success: true, email: 'staff@giftlens.test', expiresAt: '2026-11-27T01:00:00.000Z' };
const signedOut = () =>
  jsonResponse({ success: false, error: staffTexts.signedOut, code: 'unauthorized' }, 401);

type Gift = StaffGiftResponse['gift'];
const giftAnswer = (
  over: Partial<Gift> = {},
  timeline: StaffGiftResponse['timeline'] = TIMELINE,
): StaffGiftResponse => ({
  success: true,
  gift: {
    id: GIFT,
    senderEmail: 'sam@example.com',
    recipientEmail: 'maya@example.com',
    plan: 'premium_us',
    state: 'active',
    createdAt: '2026-11-20T10:00:00.000Z',
    senderName: 'Sam',
    recipientName: 'Maya',
    occasion: 'birthday',
    planName: 'Premium',
    messageType: 'text',
    messageState: 'ready',
    paidAt: '2026-11-20T10:05:00.000Z',
    validUntil: '2027-11-20T10:05:00.000Z',
    scansUsed: 1,
    scansAllowed: 10,
    firstOpenedAt: null,
    orders: [
      {
        id: 'order_1',
        provider: 'test',
        status: 'paid',
        amountMinor: 999,
        currency: 'USD',
        paymentId: 'pay_1',
        paidAt: '2026-11-20T10:05:00.000Z',
      },
    ],
    deliveries: [
      {
        id: DELIVERY,
        channel: 'email',
        contact: 'maya@example.com',
        status: 'failed',
        scheduledAt: '2026-11-21T09:00:00.000Z',
        sentAt: null,
        error: '550 mailbox unavailable',
      },
    ],
    ...over,
  },
  timeline,
});
// Out of order on purpose: the page shows them oldest first.
const TIMELINE: StaffGiftResponse['timeline'] = [
  {
    at: '2026-11-21T09:00:03.000Z',
    kind: 'delivery',
    summary: 'E-mail delivery to maya@example.com failed: 550 mailbox unavailable',
  },
  { at: '2026-11-20T10:00:00.000Z', kind: 'created', summary: 'Gift created' },
  { at: '2026-11-20T10:05:00.000Z', kind: 'paid', summary: 'Paid 9.99 USD' },
];

function renderConsole(url = '/staff') {
  return renderRoute({ path: '/staff', Component: StaffConsole }, url);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Staff sign-in (Chromium)', () => {
  test('the first sign-in enrols the authenticator: the QR code and its key, then its first code signs in', async () => {
    let signedIn = false;
    const fetch = serveJson({
      [`GET ${staffApi.me}`]: () => (signedIn ? jsonResponse(ME) : signedOut()),
      [`POST ${staffApi.sendCode}`]: () => jsonResponse({ success: true, resendAfter: 60 }),
      [`POST ${staffApi.verify}`]: () =>
        jsonResponse({
          success: true,
          signedIn: false,
          totpRequired: false,
          totpEnrolment: {
            secret: 'JBSWY3DPEHPK3PXP',
            otpauthUrl: 'otpauth://totp/GiftLens:staff?secret=JBSWY3DPEHPK3PXP',
            qrCode: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=',
          },
        }),
      [`POST ${staffApi.totpConfirm}`]: () => {
        signedIn = true;
        return jsonResponse({ success: true });
      },
    });
    const { screen } = await renderConsole();
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toContain('noindex');

    await userEvent.fill(screen.getByLabelText('Staff e-mail'), 'Staff@GiftLens.test');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await expect.element(screen.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    expect(sentBody(fetch, 'POST', staffApi.sendCode)).toEqual({ email: 'staff@giftlens.test' });

    await expect.element(screen.getByLabelText('Digit 1 of 6')).toHaveFocus();
    await userEvent.keyboard('123456');
    await expect.element(screen.getByRole('heading', { name: 'Set up your authenticator' })).toBeVisible();
    await expect
      .element(screen.getByRole('img', { name: 'QR code for your authenticator app' }))
      .toBeVisible();
    await expect.element(screen.getByLabelText('Set-up key')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    expect(sentBody(fetch, 'POST', staffApi.verify)).toEqual({
      email: 'staff@giftlens.test',
      code: '123456',
    });

    await userEvent.click(screen.getByLabelText('Digit 1 of 6'));
    await userEvent.keyboard('654321');
    await expect.element(screen.getByRole('heading', { name: 'Find a gift' })).toBeVisible();
    expect(sentBody(fetch, 'POST', staffApi.totpConfirm)).toEqual({ totp: '654321' });
    await expect.element(screen.getByText('staff@giftlens.test')).toBeVisible();
  });

  test('an enrolled staff member gives the authenticator code with the same e-mail code; a wrong one says so', async () => {
    let signedIn = false;
    const verifyBodies: unknown[] = [];
    serveJson({
      [`GET ${staffApi.me}`]: () => (signedIn ? jsonResponse(ME) : signedOut()),
      [`POST ${staffApi.sendCode}`]: () => jsonResponse({ success: true, resendAfter: 60 }),
      [`POST ${staffApi.verify}`]: (body) => {
        verifyBodies.push(body);
        const totp = (body as { totp?: string }).totp;
        if (totp === undefined)
          return jsonResponse({ success: true, signedIn: false, totpRequired: true, totpEnrolment: null });
        if (totp !== '111222')
          return jsonResponse({ success: false, error: staffTexts.totpInvalid, code: 'totp_invalid' }, 401);
        signedIn = true;
        return jsonResponse({ success: true, signedIn: true, totpRequired: false, totpEnrolment: null });
      },
    });
    const { screen } = await renderConsole();
    await userEvent.fill(screen.getByLabelText('Staff e-mail'), 'staff@giftlens.test');
    await userEvent.keyboard('{Enter}');
    await expect.element(screen.getByLabelText('Digit 1 of 6')).toHaveFocus();
    await userEvent.keyboard('246810');
    await expect.element(screen.getByRole('heading', { name: 'Authenticator code' })).toBeVisible();
    await expect.element(screen.getByLabelText('Digit 1 of 6')).toHaveFocus();

    await userEvent.keyboard('999999');
    await expect.element(screen.getByRole('alert')).toHaveTextContent(staffTexts.totpInvalid);
    await expect.element(screen.getByRole('heading', { name: 'Authenticator code' })).toBeVisible();

    await userEvent.click(screen.getByLabelText('Digit 1 of 6'));
    await userEvent.keyboard('111222');
    await expect.element(screen.getByRole('heading', { name: 'Find a gift' })).toBeVisible();
    expect(verifyBodies).toEqual([
      { email: 'staff@giftlens.test', code: '246810' },
      { email: 'staff@giftlens.test', code: '246810', totp: '999999' },
      { email: 'staff@giftlens.test', code: '246810', totp: '111222' },
    ]);
  });
});

describe('Staff sign-in, a code sent moments ago (Chromium)', () => {
  test('a 429 still leads to the code step, which offers a new code once the wait is over', async () => {
    let sent = 0;
    serveJson({
      [`GET ${staffApi.me}`]: () => signedOut(),
      [`POST ${staffApi.sendCode}`]: () => {
        sent += 1;
        return sent === 1
          ? jsonResponse(
              { success: false, error: texts.sender.resendTooEarly, code: 'resend_too_early', retryAfter: 1 },
              429,
            )
          : jsonResponse({ success: true, resendAfter: 60 });
      },
    });
    const { screen } = await renderConsole();
    await userEvent.fill(screen.getByLabelText('Staff e-mail'), 'staff@giftlens.test');
    await userEvent.keyboard('{Enter}');
    await expect.element(screen.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    await expect.element(screen.getByRole('alert')).toHaveTextContent(texts.sender.resendTooEarly);
    await expect.element(screen.getByText(/^Send a new code in \ds$/)).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    await expect.element(screen.getByText('Send a new code in 60s')).toBeVisible();
    expect(sent).toBe(2);
  });
});

describe('Staff console (Chromium)', () => {
  test('finds a gift by the recipient’s e-mail and reads its story in time order, without the message', async () => {
    serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      [`GET ${staffApi.gifts}?q=maya%40example.com`]: () =>
        jsonResponse({
          success: true,
          // The search's row is the gift's first fields.
          gifts: [
            (({ id, senderEmail, recipientEmail, plan, state, createdAt }) => ({
              id,
              senderEmail,
              recipientEmail,
              plan,
              state,
              createdAt,
            }))(giftAnswer().gift),
          ],
        }),
      [`GET ${staffApi.gift(GIFT)}`]: () => jsonResponse(giftAnswer()),
    });
    const { screen } = await renderConsole();
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await expect.element(screen.getByText(staffTexts.queryTooShort)).toBeVisible();

    await userEvent.fill(
      screen.getByLabelText('E-mail, gift id, order id or payment id'),
      'maya@example.com',
    );
    await userEvent.keyboard('{Enter}');
    await expect
      .element(screen.getByRole('status').filter({ hasText: 'found' }))
      .toHaveTextContent('1 gift found for “maya@example.com”.');
    await userEvent.click(screen.getByRole('link', { name: /maya@example\.com from sam@example\.com/ }));

    await expect.element(screen.getByRole('heading', { name: 'Gift for Maya' })).toHaveFocus();
    await expect.element(screen.getByText('Error: 550 mailbox unavailable')).toBeVisible();
    const items = screen
      .getByRole('list', { name: 'Timeline, oldest first' })
      .getByRole('listitem')
      .elements();
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringContaining('Gift created'),
      expect.stringContaining('Paid 9.99 USD'),
      expect.stringContaining('failed: 550 mailbox unavailable'),
    ]);
    // No message content without asking for it.
    expect(screen.getByRole('figure').query()).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Back to search' }));
    await expect
      .element(screen.getByLabelText('E-mail, gift id, order id or payment id'))
      .toHaveValue('maya@example.com');
  });

  test('sends a failed delivery again with a reason; the result is announced, focus goes to the gift’s heading, and the page follows the delivery until it is sent', async () => {
    let resent = false;
    const delivery = {
      id: DELIVERY,
      channel: 'email',
      contact: 'maya@example.com',
      scheduledAt: '2026-11-26T12:00:00.000Z',
      error: null,
    };
    const fetch = serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      // After the resend the runner has sent it: the page's next ask says so.
      [`GET ${staffApi.gift(GIFT)}`]: () =>
        jsonResponse(
          resent
            ? giftAnswer({
                deliveries: [{ ...delivery, status: 'sent', sentAt: '2026-11-26T12:00:01.000Z' }],
              })
            : giftAnswer(),
        ),
      [`POST ${staffApi.resend(GIFT, DELIVERY)}`]: () => {
        resent = true;
        return jsonResponse(
          giftAnswer({ deliveries: [{ ...delivery, status: 'pending', sentAt: null }] }, [
            ...TIMELINE,
            {
              at: '2026-11-26T12:00:00.000Z',
              kind: 'staff',
              summary: 'Delivery sent again',
              actor: 'staff@giftlens.test',
              reason: 'Customer asked',
            },
          ]),
        );
      },
    });
    const { screen } = await renderConsole(`/staff?gift=${GIFT}`);
    const sendAgain = screen.getByRole('button', { name: 'Send again to maya@example.com' });
    await userEvent.click(sendAgain);
    const reason = screen.getByLabelText('Reason (kept in the audit trail)');
    await expect.element(reason).toHaveFocus();

    // Without a reason nothing is sent.
    await userEvent.click(screen.getByRole('button', { name: 'Send again', exact: true }));
    await expect.element(screen.getByText(staffTexts.reasonRequired)).toBeVisible();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await userEvent.fill(reason, '  Customer asked  ');
    await userEvent.click(screen.getByRole('button', { name: 'Send again', exact: true }));
    await expect
      .element(screen.getByRole('status').filter({ hasText: 'sent again' }))
      .toHaveTextContent('The delivery is being sent again.');
    expect(sentBody(fetch, 'POST', staffApi.resend(GIFT, DELIVERY))).toEqual({ reason: 'Customer asked' });
    await expect.element(screen.getByText('reason: “Customer asked”')).toBeVisible();
    await expect.element(screen.getByText('Error: 550 mailbox unavailable')).not.toBeInTheDocument();
    // The delivery is pending now: its Send again has gone, and focus is not left on <body>.
    await expect
      .element(screen.getByRole('button', { name: 'Send again to maya@example.com' }))
      .not.toBeInTheDocument();
    await expect.element(screen.getByRole('heading', { name: 'Gift for Maya' })).toHaveFocus();
    await expect.element(screen.getByText('pending')).toBeVisible();
    await expect.element(screen.getByText(/sent 26 Nov 2026/)).toBeVisible();
  });

  test('extends the plan: the server’s error text shows in the form, then days and scans go with the reason', async () => {
    let calls = 0;
    const fetch = serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      [`GET ${staffApi.gift(GIFT)}`]: () => jsonResponse(giftAnswer()),
      [`POST ${staffApi.extend(GIFT)}`]: () =>
        ++calls === 1
          ? jsonResponse({ success: false, error: staffTexts.extendNoDays, code: 'extend_no_days' }, 409)
          : jsonResponse(giftAnswer({ validUntil: '2027-12-20T10:05:00.000Z', scansAllowed: 15 })),
    });
    const { screen } = await renderConsole(`/staff?gift=${GIFT}`);
    const extend = screen.getByRole('button', { name: 'Extend', exact: true });
    await userEvent.click(extend);
    await expect.element(screen.getByLabelText('Days to add')).toHaveFocus();
    await userEvent.fill(screen.getByLabelText('Reason (kept in the audit trail)'), 'Delivery bounced twice');
    await userEvent.click(screen.getByRole('button', { name: 'Extend', exact: true }).last());
    await expect.element(screen.getByText(staffTexts.extendNothing)).toBeVisible();

    await userEvent.fill(screen.getByLabelText('Days to add'), '30');
    await userEvent.fill(screen.getByLabelText('Scans to add'), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Extend', exact: true }).last());
    await expect.element(screen.getByRole('alert')).toHaveTextContent(staffTexts.extendNoDays);
    await userEvent.click(screen.getByRole('button', { name: 'Extend', exact: true }).last());
    await expect.element(screen.getByText('The plan was extended.')).toBeVisible();
    expect(sentBody(fetch, 'POST', staffApi.extend(GIFT))).toEqual({
      days: 30,
      scans: 5,
      reason: 'Delivery bounced twice',
    });
    await expect.element(screen.getByText('1 of 15')).toBeVisible();
    await expect.element(extend).toHaveFocus();
  });

  test('a refund asks for confirmation first; keeping the gift sends nothing', async () => {
    const fetch = serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      [`GET ${staffApi.gift(GIFT)}`]: () => jsonResponse(giftAnswer()),
      [`POST ${staffApi.refund(GIFT)}`]: () => jsonResponse(giftAnswer({ state: 'refunded' })),
    });
    const { screen } = await renderConsole(`/staff?gift=${GIFT}`);
    await userEvent.click(screen.getByRole('button', { name: 'Refund', exact: true }));
    await userEvent.fill(screen.getByLabelText('Reason (kept in the audit trail)'), 'Charged twice');
    await userEvent.click(screen.getByRole('button', { name: 'Refund', exact: true }).last());
    const dialog = screen.getByRole('dialog', { name: 'Refund this gift in full?' });
    await expect.element(dialog).toBeVisible();
    await userEvent.click(dialog.getByRole('button', { name: 'Keep it' }));
    await expect.element(dialog).not.toBeInTheDocument();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Refund', exact: true }).last());
    await userEvent.click(
      screen
        .getByRole('dialog', { name: 'Refund this gift in full?' })
        .getByRole('button', { name: 'Refund in full' }),
    );
    await expect
      .element(screen.getByText('The gift was refunded. The sender is told by e-mail.'))
      .toBeVisible();
    expect(sentBody(fetch, 'POST', staffApi.refund(GIFT))).toEqual({ reason: 'Charged twice' });
    await expect.element(screen.getByRole('button', { name: 'Refund', exact: true })).toBeDisabled();
  });

  test('the message shows only after asking with a reason', async () => {
    const fetch = serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      [`GET ${staffApi.gift(GIFT)}`]: () => jsonResponse(giftAnswer()),
      [`POST ${staffApi.message(GIFT)}`]: () =>
        jsonResponse({ success: true, messageType: 'text', messageUrl: null, text: 'Happy birthday, Maya!' }),
    });
    const { screen } = await renderConsole(`/staff?gift=${GIFT}`);
    await userEvent.click(screen.getByRole('button', { name: 'Show message' }));
    await expect.element(screen.getByText('Happy birthday, Maya!')).not.toBeInTheDocument();
    await userEvent.fill(screen.getByLabelText('Reason (kept in the audit trail)'), 'Abuse report 42');
    await userEvent.click(screen.getByRole('button', { name: 'Show message' }).last());
    await expect.element(screen.getByText('Happy birthday, Maya!')).toBeVisible();
    expect(sentBody(fetch, 'POST', staffApi.message(GIFT))).toEqual({ reason: 'Abuse report 42' });
  });

  test('the queue: counts, the oldest due job’s lag, and a dead job retried with a reason', async () => {
    const jobs: StaffJobsResponse = {
      success: true,
      counts: [
        { kind: 'delivery.send', status: 'queued', count: 3 },
        { kind: 'delivery.send', status: 'dead', count: 1 },
      ],
      oldestDueLagMs: 42_000,
      dead: [
        {
          id: 'job_9',
          kind: 'delivery.send',
          giftId: GIFT,
          lastError: 'connect ECONNREFUSED',
          attempts: 8,
          finishedAt: '2026-11-26T11:00:00.000Z',
        },
      ],
    };
    const fetch = serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      [`GET ${staffApi.jobs}`]: () => jsonResponse(jobs),
      [`POST ${staffApi.retryJob('job_9')}`]: () => jsonResponse({ success: true }),
    });
    const { screen } = await renderConsole('/staff?view=queue');
    await expect.element(screen.getByText('42 s')).toBeVisible();
    await expect.element(screen.getByRole('cell', { name: 'queued' })).toBeVisible();
    await expect.element(screen.getByText('Last error: connect ECONNREFUSED')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Retry delivery.send job job_9' }));
    await userEvent.fill(screen.getByLabelText('Reason (kept in the audit trail)'), 'SMTP relay is back');
    await userEvent.click(screen.getByRole('button', { name: 'Retry', exact: true }));
    await expect.element(screen.getByText('The delivery.send job will run again.')).toBeVisible();
    await expect.element(screen.getByRole('heading', { name: 'Job queue' })).toHaveFocus();
    expect(sentBody(fetch, 'POST', staffApi.retryJob('job_9'))).toEqual({ reason: 'SMTP relay is back' });
  });

  test('the audit trail lists who did what and why', async () => {
    serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      [`GET ${staffApi.audit}`]: () =>
        jsonResponse({
          success: true,
          entries: [
            {
              id: 'a1',
              at: '2026-11-26T12:00:00.000Z',
              staffEmail: 'staff@giftlens.test',
              action: 'delivery_resend',
              giftId: GIFT,
              reason: 'Customer asked',
              details: null,
            },
          ],
        }),
    });
    const { screen } = await renderConsole('/staff?view=audit');
    await expect.element(screen.getByText('Reason: “Customer asked”')).toBeVisible();
    await expect
      .element(screen.getByRole('link', { name: GIFT }))
      .toHaveAttribute('href', `/staff?gift=${GIFT}`);
  });

  test('the team: a colleague’s lost second factor is reset with a reason, after a confirmation; never one’s own', async () => {
    const member = (email: string, enrolled: boolean, you = false) => ({
      email,
      enrolled,
      enrolledAt: enrolled ? '2026-11-20T08:00:00.000Z' : null,
      you,
    });
    const before = [
      member('lost@giftlens.test', true),
      member('new@giftlens.test', false),
      member('staff@giftlens.test', true, true),
    ];
    const fetch = serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      [`GET ${staffApi.members}`]: () => jsonResponse({ success: true, members: before }),
      [`POST ${staffApi.resetTotp}`]: () =>
        jsonResponse({ success: true, members: [member('lost@giftlens.test', false), ...before.slice(1)] }),
    });
    const { screen } = await renderConsole('/staff?view=team');
    await expect.element(screen.getByRole('heading', { name: 'Team' })).toBeVisible();
    await expect.element(screen.getByText('(you)')).toBeVisible();
    await expect.element(screen.getByText('No authenticator yet: set up at the next sign-in')).toBeVisible();
    // Only an enrolled colleague can be reset: not oneself, not someone who never set one up.
    await expect
      .element(screen.getByRole('button', { name: 'Reset the second factor of staff@giftlens.test' }))
      .not.toBeInTheDocument();
    await expect
      .element(screen.getByRole('button', { name: 'Reset the second factor of new@giftlens.test' }))
      .not.toBeInTheDocument();

    await userEvent.click(
      screen.getByRole('button', { name: 'Reset the second factor of lost@giftlens.test' }),
    );
    await userEvent.fill(screen.getByLabelText('Reason (kept in the audit trail)'), 'Lost phone, ticket 88');
    await userEvent.click(screen.getByRole('button', { name: 'Reset second factor', exact: true }));
    const dialog = screen.getByRole('dialog', { name: 'Reset this second factor?' });
    await expect.element(dialog).toBeVisible();
    await userEvent.click(dialog.getByRole('button', { name: 'Keep it' }));
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Reset second factor', exact: true }));
    await userEvent.click(
      screen
        .getByRole('dialog', { name: 'Reset this second factor?' })
        .getByRole('button', { name: 'Reset', exact: true }),
    );
    await expect
      .element(
        screen.getByText('The second factor of lost@giftlens.test was reset. They were told by e-mail.'),
      )
      .toBeVisible();
    // The form and its button are gone: focus is on the view's heading, not lost on the page.
    await expect.element(screen.getByRole('heading', { name: 'Team' })).toHaveFocus();
    expect(sentBody(fetch, 'POST', staffApi.resetTotp)).toEqual({
      email: 'lost@giftlens.test',
      reason: 'Lost phone, ticket 88',
    });
    await expect
      .element(screen.getByText('No authenticator yet: set up at the next sign-in').first())
      .toBeVisible();
    await expect
      .element(screen.getByText('No authenticator yet: set up at the next sign-in').nth(1))
      .toBeVisible();
  });

  test('the team: the server’s refusal shows in the form and nothing changes', async () => {
    serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      [`GET ${staffApi.members}`]: () =>
        jsonResponse({
          success: true,
          members: [
            {
              email: 'lost@giftlens.test',
              enrolled: true,
              enrolledAt: '2026-11-20T08:00:00.000Z',
              you: false,
            },
          ],
        }),
      [`POST ${staffApi.resetTotp}`]: () =>
        jsonResponse({ success: false, error: staffTexts.memberNotFound, code: 'member_not_found' }, 404),
    });
    const { screen } = await renderConsole('/staff?view=team');
    await userEvent.click(
      screen.getByRole('button', { name: 'Reset the second factor of lost@giftlens.test' }),
    );
    await userEvent.fill(screen.getByLabelText('Reason (kept in the audit trail)'), 'Left the company');
    await userEvent.click(screen.getByRole('button', { name: 'Reset second factor', exact: true }));
    await userEvent.click(
      screen
        .getByRole('dialog', { name: 'Reset this second factor?' })
        .getByRole('button', { name: 'Reset', exact: true }),
    );
    await expect.element(screen.getByText(staffTexts.memberNotFound)).toBeVisible();
    await expect.element(screen.getByText(/Authenticator set up/)).toBeVisible();
  });

  test('a call answered 401 (the session ended) shows the sign-in again', async () => {
    let ended = false;
    serveJson({
      [`GET ${staffApi.me}`]: () => (ended ? signedOut() : jsonResponse(ME)),
      [`GET ${staffApi.gift(GIFT)}`]: () => jsonResponse(giftAnswer()),
      [`POST ${staffApi.takedown(GIFT)}`]: () => {
        ended = true;
        return signedOut();
      },
    });
    const { screen } = await renderConsole(`/staff?gift=${GIFT}`);
    await userEvent.click(screen.getByRole('button', { name: 'Take down', exact: true }));
    await userEvent.fill(screen.getByLabelText('Reason (kept in the audit trail)'), 'Abusive message');
    await userEvent.click(screen.getByRole('button', { name: 'Take down', exact: true }).last());
    await userEvent.click(
      screen.getByRole('dialog', { name: 'Take this gift down?' }).getByRole('button', { name: 'Take down' }),
    );
    await expect.element(screen.getByRole('heading', { name: 'Staff sign-in' })).toBeVisible();
  });
});
