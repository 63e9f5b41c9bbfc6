export type MessageKind = 'video' | 'audio' | 'text';

/** The spec's rule: .mp4, .webm or .mov is video; .mp3, .wav, .ogg or .m4a is audio; anything else is text. */
export function detectMessageType(url: string | null | undefined): MessageKind {
  if (!url) return 'text';
  let pathname: string;
  try {
    // Only the path matters (signed links carry ?exp=…&sig=…); any base resolves a relative link.
    pathname = new URL(url, 'http://localhost').pathname.toLowerCase();
  } catch {
    pathname = url.split(/[?#]/)[0]?.toLowerCase() ?? '';
  }
  if (/\.(mp4|webm|mov)$/.test(pathname)) return 'video';
  if (/\.(mp3|wav|ogg|m4a)$/.test(pathname)) return 'audio';
  return 'text';
}

/** The URL decides when it names a media file; otherwise the server's messageType does. */
export function resolveMessageType(url: string | null | undefined, messageType: MessageKind): MessageKind {
  const fromUrl = detectMessageType(url);
  return fromUrl === 'text' ? messageType : fromUrl;
}
