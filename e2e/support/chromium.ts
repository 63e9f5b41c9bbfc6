/** Flags for Chromium in this sandbox: no outside network, no GPU, running as root. */
export const BASE_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium flags, plus a fake camera fed from a Y4M file when one is given (see camera.ts). */
export function chromiumArgs(fakeCameraY4m?: string): string[] {
  if (!fakeCameraY4m) return [...BASE_CHROMIUM_ARGS];
  return [
    ...BASE_CHROMIUM_ARGS,
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${fakeCameraY4m}`,
  ];
}
