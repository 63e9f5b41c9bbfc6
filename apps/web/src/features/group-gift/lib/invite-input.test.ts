import { describe, expect, test } from 'vitest';
import { deadlineInstant, initialDeadline, parseEmails, toLocalInput } from './invite-input.ts';

describe('parseEmails', () => {
  test('takes addresses one per line, or separated by commas, semicolons and spaces, once each', () => {
    expect(parseEmails('asha@example.com\nravi@example.com, meera@example.com;  Asha@Example.com\n\n')).toEqual({
      emails: ['asha@example.com', 'ravi@example.com', 'meera@example.com'],
      invalid: [],
    });
  });

  test('lists what is not an address, as typed, apart from the addresses', () => {
    expect(parseEmails('asha@example.com, ravi, meera@example, <kabir@example.org>')).toEqual({
      emails: ['asha@example.com', 'kabir@example.org'],
      invalid: ['ravi', 'meera@example'],
    });
  });

  test('nothing typed is nothing to invite', () => {
    expect(parseEmails('  \n , ')).toEqual({ emails: [], invalid: [] });
  });
});

describe('deadline picker', () => {
  test('starts three days from now when the group has no deadline yet, else at its deadline', () => {
    const now = new Date(2026, 10, 26, 16, 5);
    expect(initialDeadline(null, now)).toBe('2026-11-29T16:05');
    const set = new Date(2026, 11, 1, 9, 30);
    expect(initialDeadline(set.toISOString(), now)).toBe(toLocalInput(set));
  });

  test('gives the local value back as an instant, and null for an empty or broken value', () => {
    expect(deadlineInstant('2026-11-29T16:05')).toBe(new Date(2026, 10, 29, 16, 5).toISOString());
    expect(deadlineInstant('')).toBeNull();
    expect(deadlineInstant('not a date')).toBeNull();
  });
});
