import { describe, expect, it } from 'vitest';
import { MESSAGE_FILE_ACCEPT, MESSAGE_MIME_TYPES, messageFileType, servedContentType } from '../src/media.ts';

describe('the media table', () => {
  it('gives the picker the spec video types (mov, mp4, webm, avi) and any audio type', () => {
    expect(MESSAGE_FILE_ACCEPT.video).toBe('video/mp4,video/quicktime,video/webm,video/x-msvideo,video/avi,.mp4,.mov,.webm,.avi');
    expect(MESSAGE_FILE_ACCEPT.audio).toBe('audio/*');
  });

  it("takes a chosen file's own type when it is of the message's kind, else its extension's", () => {
    expect(messageFileType({ name: 'clip.bin', type: 'video/x-matroska' }, 'video')).toBe('video/x-matroska');
    expect(messageFileType({ name: 'Clip.MOV', type: '' }, 'video')).toBe('video/quicktime');
    expect(messageFileType({ name: 'clip.avi', type: '' }, 'video')).toBe('video/x-msvideo');
    expect(messageFileType({ name: 'voice.webm', type: 'video/webm' }, 'audio')).toBe('audio/webm');
    expect(messageFileType({ name: 'voice.opus', type: '' }, 'audio')).toBe('audio/ogg');
    expect(messageFileType({ name: 'voice.m4a', type: '' }, 'audio')).toBe('audio/mp4');
    // Not a message: refused whatever its name.
    expect(messageFileType({ name: 'notes.pdf', type: 'application/pdf' }, 'video')).toBeNull();
    expect(messageFileType({ name: 'song.mp3', type: 'audio/mpeg' }, 'video')).toBeNull();
    expect(messageFileType({ name: 'clip.m4v', type: '' }, 'video')).toBeNull();
    expect(messageFileType({ name: 'mp4', type: '' }, 'video')).toBeNull();
  });

  it('accepts what file-type sniffs for each spec format, and sound-only containers as audio', () => {
    for (const mime of ['video/mp4', 'video/quicktime', 'video/webm', 'video/vnd.avi', 'video/x-matroska']) {
      expect(MESSAGE_MIME_TYPES.video.has(mime)).toBe(true);
    }
    for (const mime of ['audio/wav', 'audio/mpeg', 'audio/ogg; codecs=opus', 'audio/x-m4a', 'audio/x-flac', 'video/webm', 'video/mp4']) {
      expect(MESSAGE_MIME_TYPES.audio.has(mime)).toBe(true);
    }
    expect(MESSAGE_MIME_TYPES.video.has('audio/mpeg')).toBe(false);
    expect(MESSAGE_MIME_TYPES.audio.has('video/quicktime')).toBe(false);
    expect(MESSAGE_MIME_TYPES.video.has('image/jpeg')).toBe(false);
  });

  it('serves each stored file with the type its extension names', () => {
    expect(servedContentType('gifts/a/photo-1.jpg')).toBe('image/jpeg');
    expect(servedContentType('gifts/a/photo.HEIC')).toBe('image/heic');
    expect(servedContentType('messages/a/message.webm')).toBe('video/webm');
    expect(servedContentType('messages/a/message.m4v')).toBe('video/mp4');
    expect(servedContentType('messages/a/message.avi')).toBe('video/x-msvideo');
    expect(servedContentType('messages/a/message.m4a')).toBe('audio/mp4');
    expect(servedContentType('messages/a.b/message')).toBe('application/octet-stream');
    expect(servedContentType('messages/a/message.exe')).toBe('application/octet-stream');
  });
});
