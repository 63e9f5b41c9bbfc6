import { describe, expect, it } from 'vitest';
import { detectMessageType, resolveMessageType } from './message-type.ts';

describe('message type from the URL', () => {
  it('reads video and audio extensions from the path, ignoring the signature query', () => {
    expect(detectMessageType('/media/gifts/a/message-1.mp4?exp=1&sig=ab.mp3')).toBe('video');
    expect(detectMessageType('https://cdn.example.com/m/clip.WEBM')).toBe('video');
    expect(detectMessageType('/media/x.mov')).toBe('video');
    for (const ext of ['mp3', 'wav', 'ogg', 'm4a']) expect(detectMessageType(`/media/voice.${ext}?exp=2`)).toBe('audio');
  });

  it('treats anything else as text', () => {
    expect(detectMessageType('/gift-message/0123456789abcdef0123456789abcdef')).toBe('text');
    expect(detectMessageType('/media/file.mp4.txt')).toBe('text');
    expect(detectMessageType(null)).toBe('text');
    expect(detectMessageType('')).toBe('text');
  });

  it("falls back to the server's messageType when the URL names no media file", () => {
    expect(resolveMessageType('/media/blob?exp=1', 'audio')).toBe('audio');
    expect(resolveMessageType(null, 'text')).toBe('text');
    expect(resolveMessageType('/media/a.mp4', 'audio')).toBe('video');
  });
});
