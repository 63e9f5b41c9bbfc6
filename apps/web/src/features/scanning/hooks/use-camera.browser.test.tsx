import { texts } from '@giftlens/contract/texts';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { useCamera } from './use-camera.ts';

/** The hook as the camera screen uses it: a real <video> attached through the callback ref. */
function CameraProbe({ recipientFlow }: { recipientFlow: boolean }) {
  const { attachVideo, camera } = useCamera(recipientFlow, 0);
  return (
    <>
      <video ref={attachVideo} muted playsInline data-testid="video" />
      <p data-testid="camera">{camera.status === 'error' ? `error: ${camera.message}` : camera.status}</p>
    </>
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('useCamera (Chromium with a fake camera)', () => {
  test('starts the rear camera at 1280x720, reports ready once frames arrive, stops it on unmount', async () => {
    const getUserMedia = vi.spyOn(navigator.mediaDevices, 'getUserMedia');
    const screen = await render(<CameraProbe recipientFlow={false} />);
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

  test('a refused permission asks for it, with the recipient flow’s extra sentence', async () => {
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    const screen = await render(<CameraProbe recipientFlow />);
    await expect
      .element(screen.getByTestId('camera'))
      .toHaveTextContent(`error: ${texts.recipient.cameraRequired}${texts.recipient.cameraRequiredRecipientSuffix}`);
  });

  test('a camera that exists but fails is an access error', async () => {
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockRejectedValue(new DOMException('busy', 'NotReadableError'));
    const screen = await render(<CameraProbe recipientFlow={false} />);
    await expect.element(screen.getByTestId('camera')).toHaveTextContent(`error: ${texts.recipient.cameraError}`);
  });
});
