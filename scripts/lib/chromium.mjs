// Finds a Chromium for the browser tests, installing one when none is there:
// CHROME_PATH, then the system's chromium, then Playwright's own; else Debian's package where apt is
// available, else Playwright's download.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function which(cmd) {
  const res = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  const path = res.stdout.trim();
  return res.status === 0 && path ? path : null;
}

function playwrightChromium() {
  try {
    const out = execFileSync(
      process.execPath,
      ['-e', "import('@playwright/test').then(m => console.log(m.chromium.executablePath()))"],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    ).trim();
    return out && existsSync(out) ? out : null;
  } catch {
    return null;
  }
}

function findChromium() {
  if (process.env.CHROME_PATH && existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome']) {
    const path = which(name);
    if (path) return path;
  }
  return playwrightChromium();
}

export function ensureChromium() {
  const found = findChromium();
  if (found) {
    console.log(`Chromium for browser tests: ${found}`);
    return found;
  }
  const asRoot = process.getuid?.() === 0;
  const sudo = !asRoot && which('sudo') ? ['sudo'] : [];
  if (which('apt-get') && (asRoot || sudo.length)) {
    console.log('No Chromium found: installing Debian\'s chromium package');
    const apt = (args) => spawnSync(sudo[0] ?? 'apt-get', sudo.length ? ['apt-get', ...args] : args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (apt(['install', '-y', '-qq', 'chromium']).status !== 0) {
      apt(['update', '-qq']);
      apt(['install', '-y', '-qq', 'chromium']);
    }
  } else {
    console.log("No Chromium found: downloading Playwright's");
    spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit' });
  }
  const installed = findChromium();
  if (!installed) {
    console.error('Could not find or install Chromium; set CHROME_PATH to a Chromium or Chrome binary.');
    process.exit(1);
  }
  console.log(`Chromium for browser tests: ${installed}`);
  return installed;
}
