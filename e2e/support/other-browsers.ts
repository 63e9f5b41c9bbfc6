import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import puppeteer from 'puppeteer-core';
import { Builder, By, error, until, type WebDriver } from 'selenium-webdriver';
import { FAKE_CAMERA_FRAME } from './camera.ts';
import { expect, test as base } from './fixtures.ts';
import { madeByFfmpeg } from './ffmpeg.ts';
import { GIFT_PHOTOS_DIR } from './paths.ts';
import { freePort, stopProcess, waitForAnswer } from './processes.ts';

// The smoke suites in browsers other than Chromium: Firefox ESR driven by puppeteer-core over WebDriver
// BiDi, and WebKitGTK's MiniBrowser driven by selenium-webdriver through WebKitWebDriver, both from Debian's
// packages (.ci/run installs them). Each page's console errors fail the test.

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** What the canvas camera shows: a phone photo of DVD cover 001, the fixtures' default gift. */
export const CAMERA_PHOTO = resolve(GIFT_PHOTOS_DIR, 'covers/photos/001-canon.jpg');

/**
 * The project's test with its data fixtures (made through the server's API), and `smoke`: a fresh browser of the
 * spec file's `smokeBrowser` for each test, at the server the global setup started; any console error or uncaught
 * error in it fails the test. The project's own console check (a Chromium page) is not used here.
 */
export const test = base.extend<{ smoke: SmokeBrowser }, { smokeBrowser: 'firefox' | 'webkit' }>({
  smokeBrowser: ['firefox', { scope: 'worker', option: true }],
  failOnConsoleError: async ({}, use) => use(),
  // The project's axe check reads a Chromium page; these suites drive their own browsers.
  failOnAxeViolation: async ({}, use) => use(),
  smoke: async ({ smokeBrowser, baseURL }, use) => {
    const needed = smokeBrowser === 'firefox' ? [FIREFOX_PATH] : [WEBKIT_DRIVER_PATH, MINIBROWSER_PATH];
    for (const file of needed) {
      if (!existsSync(file)) throw new Error(`${file} is missing: apt-get install -y firefox-esr webkit2gtk-driver xvfb (.ci/run does)`);
    }
    const picture = cameraPicture(CAMERA_PHOTO);
    const browser = smokeBrowser === 'firefox' ? await launchFirefox(baseURL!, picture) : await launchWebKit(baseURL!);
    try {
      await use(browser);
    } finally {
      const errors = await browser.errors();
      await browser.close();
      expect(errors, `console errors in ${browser.name}`).toEqual([]);
    }
  },
});

/** A photo as the camera sees it (letterboxed into 1280x720, as Chromium's fake camera shows it), as a data URL. */
export function cameraPicture(photoPath: string): string {
  const frame = madeByFfmpeg('camera', `${basename(photoPath).replace(/\.[^.]+$/, '')}-720p.jpg`, [
    '-i',
    photoPath,
    '-vf',
    FAKE_CAMERA_FRAME,
    '-q:v',
    '3',
  ]);
  return `data:image/jpeg;base64,${readFileSync(frame).toString('base64')}`;
}

/**
 * Runs in the page (serialized: it uses nothing from this module): getUserMedia answers a canvas that shows
 * `picture`, redrawn 10 times a second, through `canvas.captureStream()` — Firefox's and WebKit's fake cameras show
 * only test patterns. A microphone asked for alongside comes from the browser's own (fake) device.
 */
export function installCanvasCamera(picture: string): void {
  const w = window as unknown as { __giftlensCanvasCamera?: boolean };
  // about:blank and other documents without media devices (not a secure context) are left alone.
  if (w.__giftlensCanvasCamera || !navigator.mediaDevices) return;
  w.__giftlensCanvasCamera = true;
  const canvas = document.createElement('canvas');
  canvas.width = 1280;
  canvas.height = 720;
  const ctx = canvas.getContext('2d');
  const image = new Image();
  image.src = picture;
  let tick = 0;
  window.setInterval(() => {
    if (!ctx || !image.complete || image.naturalWidth === 0) return;
    ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
    // One pixel changes every frame, so the stream keeps delivering frames.
    ctx.fillStyle = tick++ % 2 ? '#000' : '#010101';
    ctx.fillRect(0, 0, 1, 1);
  }, 100);
  const devices = navigator.mediaDevices;
  const original = devices.getUserMedia.bind(devices);
  devices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
    const video = constraints?.video ? canvas.captureStream(30).getVideoTracks() : [];
    const audio = constraints?.audio ? (await original({ audio: true })).getAudioTracks() : [];
    return new MediaStream([...video, ...audio]);
  };
}

/** Runs in the page: a Content-Security-Policy violation is logged as a console error (the suites fail on those). */
export function reportCspViolationsToConsole(): void {
  document.addEventListener(
    'securitypolicyviolation',
    (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || '(none)'} at ${e.sourceFile}:${e.lineNumber}`),
    true,
  );
}

/**
 * What a smoke journey does in a browser, the same in each: real (trusted) clicks and keys from the driver, so a
 * tap's permission to play is the real one. Elements are found by XPath (`click`) or CSS (the rest).
 */
export interface SmokeBrowser {
  readonly name: string;
  goto(path: string): Promise<void>;
  /** Waits (20 s) until the element is visible and enabled, then clicks it. */
  click(xpath: string): Promise<void>;
  /** Types `text` into the field (its current value cleared first). */
  type(css: string, text: string): Promise<void>;
  /** Chooses the option with this value. */
  select(css: string, value: string): Promise<void>;
  upload(css: string, file: string): Promise<void>;
  /** Runs `expression` in the page and answers its value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Console errors and uncaught errors so far. */
  errors(): Promise<string[]>;
  close(): Promise<void>;
}

/** The button (or link) whose whole text, or accessible name given by aria-label, is `name`. */
export const button = (name: string) => `//*[(self::button or self::a) and (normalize-space()="${name}" or @aria-label="${name}")]`;

/** Polls `expression` in the page until it is truthy (default 20 s); fails with `what`. */
export async function waitUntil(browser: SmokeBrowser, expression: string, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await browser.evaluate<boolean>(`Boolean(${expression})`).catch(() => false)) return;
    if (Date.now() > until) {
      // What the page showed instead: its path and the start of its text (these drivers leave no trace behind).
      const shown = await browser
        .evaluate<string>("location.pathname + ': ' + document.body.innerText.replace(/\\s+/g, ' ').slice(0, 400)")
        .catch((err: unknown) => String(err));
      throw new Error(`${browser.name}: ${what} (not seen within ${timeoutMs / 1000} s); the page: ${shown}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const waitForText = (browser: SmokeBrowser, text: string, timeoutMs?: number) =>
  waitUntil(browser, `document.body.innerText.includes(${JSON.stringify(text)})`, `the text "${text}"`, timeoutMs);

export const waitForPath = (browser: SmokeBrowser, path: string, timeoutMs?: number) =>
  waitUntil(browser, `location.pathname === ${JSON.stringify(path)}`, `the page ${path}`, timeoutMs);

/**
 * Firefox ESR over WebDriver BiDi, headless, at a phone's width, with fake media devices that answer without a
 * prompt (a reaction's microphone; cameras are the canvas of `installCanvasCamera`, installed before every
 * document's scripts when `picture` is given).
 */
export async function launchFirefox(baseURL: string, picture?: string): Promise<SmokeBrowser> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: FIREFOX_PATH,
    headless: true,
    defaultViewport: { width: 390, height: 844 },
    extraPrefsFirefox: {
      'media.navigator.streams.fake': true,
      'media.navigator.permission.disabled': true,
      // Audible media plays only right after a click (transient activation), nearer a phone than sticky activation.
      'media.autoplay.default': 1,
      'media.autoplay.blocking_policy': 1,
    },
  });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`${page.url()}: uncaught ${err instanceof Error ? err.message : String(err)}`));
  await page.evaluateOnNewDocument(reportCspViolationsToConsole);
  if (picture) await page.evaluateOnNewDocument(installCanvasCamera, picture);
  /** The first element matching `selector` that is visible, within 20 s. */
  const visible = async (selector: string) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      for (const el of await page.$$(selector)) if (await el.isVisible()) return el;
      if (Date.now() > deadline) throw new Error(`firefox: nothing visible matches ${selector}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  return {
    name: 'firefox',
    goto: async (path) => void (await page.goto(new URL(path, baseURL).href, { waitUntil: 'load' })),
    click: async (xpath) => {
      const selector = `::-p-xpath(${xpath}[not(@disabled)])`;
      await (await visible(selector)).click();
    },
    type: async (css, text) => {
      const el = await visible(css);
      await el.click({ count: 3 });
      await page.keyboard.press('Backspace');
      await el.type(text);
    },
    // Waits for the field as the other actions do: a step's fields arrive with its lazily loaded code.
    select: async (css, value) => void (await (await visible(css)).select(value)),
    upload: async (css, file) => {
      const el = await page.waitForSelector(css, { timeout: 20_000 });
      await (el as unknown as { uploadFile(f: string): Promise<void> } | null)?.uploadFile(file);
    },
    evaluate: <T>(expression: string) => page.evaluate(expression) as Promise<T>,
    errors: () => Promise.resolve(errors),
    close: () => browser.close(),
  };
}

/** Starts Xvfb on a free display; resolves with the display (":N") once it is ready. */
function startXvfb(): Promise<{ display: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    let out = '';
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve({ display: `:${out.trim()}`, child });
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
}

/** Where `captureErrorsInPage` keeps what it saw (the tab's sessionStorage: it outlives a page load). */
const ERRORS_KEY = '__giftlensSmokeErrors';

/**
 * Runs in the page (serialized): console.error calls, uncaught errors, unhandled rejections and CSP violations
 * from now on are appended to the tab's sessionStorage. For WebKit, whose driver (classic WebDriver, no BiDi in
 * Debian's WebKitWebDriver) hands over no console and runs no script before a document's own: installed after
 * each page load; the app then moves within that document.
 */
export function captureErrorsInPage(): void {
  const key = '__giftlensSmokeErrors';
  const w = window as unknown as Record<string, boolean>;
  if (w[key]) return;
  w[key] = true;
  const keep = (text: string) => {
    const seen = JSON.parse(sessionStorage.getItem(key) ?? '[]') as string[];
    sessionStorage.setItem(key, JSON.stringify([...seen, `${location.pathname}: ${text}`]));
  };
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    keep(args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '));
    original(...args);
  };
  window.addEventListener('error', (e) => keep(`uncaught ${e.message}`));
  window.addEventListener('unhandledrejection', (e) => keep(`unhandled rejection ${String(e.reason)}`));
  document.addEventListener('securitypolicyviolation', (e) => keep(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`));
}

/**
 * WebKitGTK's MiniBrowser in automation mode under Xvfb, driven by selenium-webdriver through WebKitWebDriver on a
 * loopback port. Media plays only from a tap (`media-playback-requires-user-gesture`), as on an iPhone. Errors
 * are those `captureErrorsInPage` sees. Classic WebDriver has no script before a document's own either: the canvas
 * camera is installed by the journey on the page that navigates (within the app) to the camera.
 */
export async function launchWebKit(baseURL: string): Promise<SmokeBrowser> {
  const xvfb = await startXvfb();
  const port = await freePort();
  const driverProcess = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`, '--host=127.0.0.1'], {
    env: { ...process.env, DISPLAY: xvfb.display },
    stdio: 'ignore',
  });
  const stop = async () => {
    await stopProcess(driverProcess);
    await stopProcess(xvfb.child);
  };
  let driver: WebDriver;
  try {
    await waitForAnswer(`http://127.0.0.1:${port}/status`, driverProcess, { timeoutMs: 20_000 });
    driver = await new Builder()
      .usingServer(`http://127.0.0.1:${port}`)
      .withCapabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': {
          binary: MINIBROWSER_PATH,
          args: [
            '--automation',
            '--media-playback-requires-user-gesture=true',
            '--enable-media-stream=true',
          ],
        },
      })
      .build();
    await driver.manage().window().setRect({ width: 390, height: 844 });
  } catch (err) {
    await stop();
    throw err;
  }
  /** The first element `locator` finds that is visible, within 20 s. */
  const visible = async (locator: By) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      for (const el of await driver.findElements(locator)) if (await el.isDisplayed().catch(() => false)) return el;
      if (Date.now() > deadline) throw new Error(`webkit: nothing visible matches ${locator.toString()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  return {
    name: 'webkit',
    goto: async (path) => {
      await driver.get(new URL(path, baseURL).href);
      await driver.executeScript(`(${captureErrorsInPage.toString()})()`);
    },
    click: async (xpath) => {
      // A toast or the install prompt may cover the element for a moment: centre it and try again.
      const deadline = Date.now() + 20_000;
      for (;;) {
        const el = await visible(By.xpath(`${xpath}[not(@disabled)]`));
        await driver.executeScript("arguments[0].scrollIntoView({ block: 'center' })", el);
        try {
          await el.click();
          return;
        } catch (err) {
          if (!(err instanceof error.ElementClickInterceptedError) || Date.now() > deadline) throw err;
          await new Promise((r) => setTimeout(r, 300));
        }
      }
    },
    type: async (css, text) => {
      const el = await visible(By.css(css));
      await el.clear();
      await el.sendKeys(text);
    },
    select: async (css, value) => (await visible(By.css(`${css} option[value="${value}"]`))).click(),
    upload: async (css, file) => (await driver.wait(until.elementLocated(By.css(css)), 20_000)).sendKeys(file),
    evaluate: <T>(expression: string) => driver.executeScript<T>(`return (${expression});`),
    errors: async () => JSON.parse((await driver.executeScript<string | null>(`return sessionStorage.getItem('${ERRORS_KEY}')`)) ?? '[]') as string[],
    close: async () => {
      // The driver is stopped whatever quit says; a quit that fails is still reported.
      try {
        await driver.quit();
      } finally {
        await stop();
      }
    },
  };
}
