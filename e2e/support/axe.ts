import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * axe-core in every screen a test visits. The engine and a watcher are an init script of the test's context, so
 * they run inside each page beside the test instead of between its steps: once a screen (its URL, or a dialog
 * opened over it, or errors shown on it) has settled for SETTLE_MS, the watcher runs axe's WCAG 2.0/2.1/2.2 A and AA rules on it and
 * hands the result to a binding. The fixture checks the screen the test ends on too, and fails the test on any
 * violation, naming the rule, the element and the URL.
 */

/** The rules we hold every screen to: WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** The binding through which every page reports its axe results. */
export const AXE_BINDING = '__giftlensAxe';
/** What a page exposes for the fixture: check the screen now (after any check in flight). */
export const AXE_CHECK_NOW = '__giftlensAxeCheckNow';

/** How long a new screen is left to settle before it is checked. */
const SETTLE_MS = 250;

export interface AxeNode {
  target: string;
  html: string;
  summary: string;
}

export interface AxeReport {
  url: string;
  screen: string;
  ms: number;
  violations: { id: string; impact: string | null; help: string; helpUrl: string; nodes: AxeNode[] }[];
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs in each document (serialized, so it uses nothing from this module). Only the top frame is checked: a
 * provider's frame is not ours to fix.
 */
function watchScreens(opts: { binding: string; checkNow: string; tags: string[]; settleMs: number }) {
  // about:blank (a new page before its first navigation) is nobody's screen.
  if (window.top !== window || !location.protocol.startsWith('http')) return;
  type Axe = {
    run: (
      context: Document | { exclude: string[] },
      options: { runOnly: { type: 'tag'; values: string[] }; resultTypes: string[] },
    ) => Promise<{
      violations: {
        id: string;
        impact?: string | null;
        help: string;
        helpUrl: string;
        nodes: { target: unknown[]; html: string; failureSummary?: string }[];
      }[];
    }>;
  };
  const w = window as unknown as Record<string, unknown>;
  const axe = w.axe as Axe | undefined;
  if (!axe) return;
  const report = (r: unknown) => void (w[opts.binding] as ((r: unknown) => Promise<void>) | undefined)?.(r);

  /**
   * A screen: the URL, its main heading (the wizard's steps share one URL) and the dialog open over it (a dialog
   * is a screen of its own).
   */
  const screenKey = () => {
    const heading = document.querySelector('h1')?.textContent?.trim().slice(0, 60) ?? '';
    const dialog = document.querySelector('dialog[open]');
    const name = dialog?.getAttribute('aria-labelledby');
    const title = name ? document.getElementById(name)?.textContent : dialog ? 'dialog' : '';
    // A screen showing errors (an alert, a field marked invalid) is checked again in that state.
    const errors = document.querySelectorAll('[role="alert"], [aria-invalid="true"]').length;
    return `${location.pathname}${location.search}${heading ? ` "${heading}"` : ''}${title ? ` [dialog: ${title}]` : ''}${errors ? ` (${errors} errors)` : ''}`;
  };

  const checked = new Set<string>();
  let running: Promise<void> = Promise.resolve();
  let quietTimer: number | undefined;

  /** Waits for running transitions and finite animations (a toast sliding in) so colours are read at rest. */
  const settled = async () => {
    const until = performance.now() + 1_000;
    while (performance.now() < until) {
      const moving = document
        .getAnimations()
        .some((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity));
      if (!moving) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const check = (force: boolean) => {
    running = running.then(async () => {
      const screen = screenKey();
      if (!force && checked.has(screen)) return;
      checked.add(screen);
      await settled();
      const started = performance.now();
      try {
        // Toasts stacked behind the front one are collapsed: sonner fades their content out (opacity 0), and read
        // mid-fade their text fails contrast though nobody can read it. The front toast, and every toast of an
        // expanded stack, is checked.
        const context = { exclude: ['[data-sonner-toast][data-front="false"][data-expanded="false"]'] };
        const result = await axe.run(context, { runOnly: { type: 'tag', values: opts.tags }, resultTypes: ['violations'] });
        report({
          url: location.href,
          screen,
          ms: Math.round(performance.now() - started),
          violations: result.violations.map((v) => ({
            id: v.id,
            impact: v.impact ?? null,
            help: v.help,
            helpUrl: v.helpUrl,
            nodes: v.nodes.map((n) => ({
              target: n.target.map(String).join(' '),
              html: n.html.slice(0, 200),
              summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300),
            })),
          })),
        });
      } catch (err) {
        // The page changed under axe (a navigation mid-run): the next quiet moment checks the new screen.
        checked.delete(screen);
        void err;
      }
    });
    return running;
  };

  // A new screen is checked once it has settled for a moment; one shown for less (a spinner) is skipped.
  let pending: string | null = null;
  const changed = () => {
    if (document.readyState === 'loading') return;
    const screen = screenKey();
    if (checked.has(screen) || pending === screen) return;
    pending = screen;
    window.clearTimeout(quietTimer);
    quietTimer = window.setTimeout(() => {
      quietTimer = undefined;
      pending = null;
      void check(false);
    }, opts.settleMs);
  };

  w[opts.checkNow] = async () => {
    window.clearTimeout(quietTimer);
    quietTimer = undefined;
    await check(true);
  };

  const start = () => {
    new MutationObserver(changed).observe(document.documentElement, { subtree: true, childList: true, attributes: true });
    changed();
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
  else start();
}

/** The init script: axe-core, then the watcher with our options. */
export function axeInitScript(): string {
  const opts = { binding: AXE_BINDING, checkNow: AXE_CHECK_NOW, tags: AXE_TAGS, settleMs: SETTLE_MS };
  return `${axeSource}\n;(${watchScreens.toString()})(${JSON.stringify(opts)});`;
}

/** One line per element that breaks a rule: "rule (impact): help — element `html`: why, on url". */
export function describeViolations(reports: AxeReport[]): string[] {
  const lines = reports.flatMap((r) =>
    r.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${n.target} \`${n.html}\`: ${n.summary} — on ${r.screen}`),
    ),
  );
  return [...new Set(lines)];
}
