import { expect, test, vi } from 'vitest';
import { onFirstInteraction } from './first-interaction.ts';

// One page per test file: this module's memory of an interaction starts empty here, and the tests run in order.

test('a part that asks before any interaction waits for the first one, and runs once; one that stopped waiting never runs', () => {
  const waiting = vi.fn();
  const gone = vi.fn();
  onFirstInteraction(waiting);
  const stop = onFirstInteraction(gone);
  expect(waiting).not.toHaveBeenCalled();
  stop();
  window.dispatchEvent(new PointerEvent('pointerdown'));
  window.dispatchEvent(new PointerEvent('pointerdown'));
  expect(waiting).toHaveBeenCalledTimes(1);
  expect(gone).not.toHaveBeenCalled();
});

test('a part that first asks after the interaction (a tap while the landing page hydrates) runs at once', () => {
  // The pointerdown above happened before this part asked: before, it waited for a second interaction, and the
  // navigation that the tap started waited on it (the URL changed, the landing page stayed).
  const late = vi.fn();
  onFirstInteraction(late);
  expect(late).toHaveBeenCalledTimes(1);
});
