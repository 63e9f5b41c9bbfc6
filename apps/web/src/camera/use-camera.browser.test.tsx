import { afterEach, describe, expect, test, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { useCamera, type CameraState } from './use-camera.ts';

/** The hook as the camera screen uses it: a real <video> attached through the callback ref. */
function describeCamera(camera: CameraState): string {
  if (camera.status !== 'error') return camera.status;
  const { failure } = camera;
  return `error: ${failure.stage} ${failure.stage === 'unsupported' ? '' : (failure.error as DOMException).name}`.trim();
}

function CameraProbe() {
  const { attachVideo, camera } = useCamera();
  return (
    <>
      <video ref={attachVideo} muted playsInline data-testid="video" />
      <p data-testid="camera">{describeCamera(camera)}</p>
    </>
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('useCamera (Chromium with a fake camera)', () => {
  test('starts the rear camera at 1280x720, reports ready once frames arrive, stops it on unmount', async () => {
    const getUserMedia = vi.spyOn(navigator.mediaDevices, 'getUserMedia');
    const screen = await render(<CameraProbe />);
    await expect.element(screen.getByTestId('camera')).toHaveTextContent('ready');
    expect(getUserMedia).toHaveBeenCalledWith({
      video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
      audio: false,
    });
    const video = screen.getByTestId('video').element() as HTMLVideoElement;
    expect(video.videoWidth).toBeGreaterThan(0);
    const stream = video.srcObject as MediaStream;
    await screen.unmount();
    expect(stream.getTracks().map((t) => t.readyState)).toEqual(['ended']);
    expect(video.srcObject).toBeNull();
  });

  test('a refused camera is an error of opening it, with the browser’s reason for each screen to word', async () => {
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    const screen = await render(<CameraProbe />);
    await expect.element(screen.getByTestId('camera')).toHaveTextContent('error: open NotAllowedError');
  });

  test('a stream that will not play is an error of playing it, and its tracks are stopped', async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ video: true });
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockResolvedValue(stream);
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockRejectedValue(new DOMException('no', 'NotSupportedError'));
    const screen = await render(<CameraProbe />);
    await expect.element(screen.getByTestId('camera')).toHaveTextContent('error: play NotSupportedError');
    expect(stream.getTracks().map((t) => t.readyState)).toEqual(['ended']);
  });

  test('a browser without a camera API says so', async () => {
    vi.spyOn(navigator, 'mediaDevices', 'get').mockReturnValue(undefined as unknown as MediaDevices);
    const screen = await render(<CameraProbe />);
    await expect.element(screen.getByTestId('camera')).toHaveTextContent('error: unsupported');
  });
});
