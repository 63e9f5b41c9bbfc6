import { Suspense, lazy, useRef, useState, type ComponentType } from 'react';
import { expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { useFocusHeading } from './use-focus.ts';

/** A step whose code arrives later, as the wizard's lazily loaded steps do. */
function lazyStep(): { Step: ComponentType; arrive: () => void } {
  let arrive = () => {};
  const loaded = new Promise<{ default: ComponentType }>((resolve) => {
    arrive = () => resolve({ default: () => <h1>Second step</h1> });
  });
  return { Step: lazy(() => loaded), arrive };
}

function Wizard({ Later }: { Later: ComponentType }) {
  const [step, setStep] = useState(1);
  const section = useRef<HTMLElement>(null);
  useFocusHeading(section, step);
  return (
    <section ref={section}>
      <Suspense fallback={<p>Loading…</p>}>
        {step === 1 ? (
          <div>
            <h1>First step</h1>
            {/* Pressing the button removes it from the page, as a verified code's boxes are: focus is lost. */}
            <button type="button" onClick={() => setStep(2)}>
              Next
            </button>
          </div>
        ) : (
          <Later />
        )}
      </Suspense>
    </section>
  );
}

test('a lazily loaded step gets the focus on its heading, not the hidden heading of the step before', async () => {
  const { Step, arrive } = lazyStep();
  await render(<Wizard Later={Step} />);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect.element(page.getByText('Loading…')).toBeVisible();
  // While the step loads, the old one stays in the page, hidden: its heading cannot take the focus. The hook looks
  // again on every frame: a few frames pass before the step arrives.
  for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
  arrive();
  const heading = page.getByRole('heading', { name: 'Second step' });
  await expect.element(heading).toBeVisible();
  await expect.poll(() => document.activeElement?.textContent).toBe('Second step');
});
