import { useState } from 'react';
import { describe, expect, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { CodeInput } from './code-input.tsx';

/** The code input as the sender's verification step holds it: the value in state, a form whose Verify needs 6 digits. */
function CodeForm({ onSubmit }: { onSubmit: (code: string) => void }) {
  const [code, setCode] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(code);
      }}
    >
      <CodeInput length={6} value={code} onChange={setCode} onComplete={onSubmit} autoFocus />
      <output data-testid="code">{code}</output>
      <button type="submit" disabled={code.length !== 6}>
        Verify
      </button>
    </form>
  );
}

const digit = (screen: Awaited<ReturnType<typeof render>>, n: number) => screen.getByLabelText(`Digit ${n} of 6`);

/** The code checked with the boxes disabled, as the verification steps do; every code is wrong. */
function WrongCodeForm() {
  const [code, setCode] = useState('');
  const [checking, setChecking] = useState(false);
  const check = () => {
    setChecking(true);
    setTimeout(() => {
      setCode('');
      setChecking(false);
    }, 50);
  };
  return <CodeInput length={6} value={code} onChange={setCode} onComplete={check} disabled={checking} autoFocus />;
}

describe('CodeInput (Chromium)', () => {
  test('after a wrong code the first box has focus again, not the page', async () => {
    const screen = await render(<WrongCodeForm />);
    await expect.element(digit(screen, 1)).toHaveFocus();
    await userEvent.keyboard('123456');
    await expect.element(digit(screen, 1)).toBeEnabled();
    await expect.element(digit(screen, 1)).toHaveValue('');
    await expect.element(digit(screen, 1)).toHaveFocus();
  });

  test('typing moves to the next box; the sixth digit submits the code once', async () => {
    const onSubmit = vi.fn<(code: string) => void>();
    const screen = await render(<CodeForm onSubmit={onSubmit} />);
    await expect.element(digit(screen, 1)).toHaveFocus();
    await userEvent.keyboard('12a3');
    await expect.element(screen.getByTestId('code')).toHaveTextContent('123');
    await expect.element(digit(screen, 4)).toHaveFocus();
    await expect.element(screen.getByRole('button', { name: 'Verify' })).toBeDisabled();
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.keyboard('456');
    await expect.element(screen.getByTestId('code')).toHaveTextContent('123456');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith('123456');
    await expect.element(screen.getByRole('button', { name: 'Verify' })).toBeEnabled();
  });

  test('Backspace on an empty box clears the one before and moves back to it', async () => {
    const screen = await render(<CodeForm onSubmit={vi.fn()} />);
    await userEvent.keyboard('789');
    await expect.element(digit(screen, 4)).toHaveFocus();
    await userEvent.keyboard('{Backspace}');
    await expect.element(screen.getByTestId('code')).toHaveTextContent(/^78$/);
    await expect.element(digit(screen, 3)).toHaveFocus();
    await expect.element(digit(screen, 3)).toHaveValue('');
    await userEvent.keyboard('{Backspace}');
    await expect.element(screen.getByTestId('code')).toHaveTextContent(/^7$/);
    await expect.element(digit(screen, 2)).toHaveFocus();
  });

  test('pasting into any box takes the first six digits from the first box on, and submits', async () => {
    const onSubmit = vi.fn<(code: string) => void>();
    const screen = await render(<CodeForm onSubmit={onSubmit} />);
    await digit(screen, 3).click();
    const paste = new DataTransfer();
    paste.setData('text', 'Your code: 98-76 54 32 10');
    (digit(screen, 3).element() as HTMLInputElement).dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: paste, bubbles: true, cancelable: true }),
    );
    await expect.element(screen.getByTestId('code')).toHaveTextContent('987654');
    for (const [n, d] of [[1, '9'], [2, '8'], [3, '7'], [4, '6'], [5, '5'], [6, '4']] as const) {
      await expect.element(digit(screen, n)).toHaveValue(d);
    }
    await expect.element(digit(screen, 6)).toHaveFocus();
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('987654');
  });

  test('a pasted text without digits changes nothing', async () => {
    const onSubmit = vi.fn<(code: string) => void>();
    const screen = await render(<CodeForm onSubmit={onSubmit} />);
    await userEvent.keyboard('1');
    const paste = new DataTransfer();
    paste.setData('text', 'no code here');
    (digit(screen, 2).element() as HTMLInputElement).dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: paste, bubbles: true, cancelable: true }),
    );
    await expect.element(screen.getByTestId('code')).toHaveTextContent(/^1$/);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
