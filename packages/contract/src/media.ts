/**
 * The one table of media file types: which files a sender may upload as a message (checked by the web's picker
 * and by the server on the file's sniffed bytes), and the Content-Type each stored file is served with.
 */
import type { MessageType } from './sender.ts';

interface MediaFormat {
  mime: string;
  /** The extensions files of this type go by. */
  extensions: readonly string[];
  /** Another name (a browser's or the sniffer's) for this format: its files are served as `aliasOf`. */
  aliasOf?: string;
  /** Named by the message upload picker (spec: video mov, mp4, webm, avi; audio takes any audio type). */
  picker?: true;
}

/** Every media type GiftLens handles, per kind. The first type listing an extension is what its files are served as. */
export const MEDIA_FORMATS = {
  video: [
    { mime: 'video/mp4', extensions: ['mp4'], picker: true },
    { mime: 'video/quicktime', extensions: ['mov'], picker: true },
    { mime: 'video/webm', extensions: ['webm'], picker: true },
    { mime: 'video/x-msvideo', extensions: ['avi'], picker: true },
    { mime: 'video/avi', extensions: [], aliasOf: 'video/x-msvideo', picker: true },
    { mime: 'video/vnd.avi', extensions: [], aliasOf: 'video/x-msvideo' },
    { mime: 'video/x-matroska', extensions: ['mkv'] },
    { mime: 'video/x-m4v', extensions: ['m4v'], aliasOf: 'video/mp4' },
    { mime: 'video/3gpp', extensions: [] },
    { mime: 'video/3gpp2', extensions: [] },
    { mime: 'video/mpeg', extensions: ['mpg'] },
    { mime: 'video/ogg', extensions: ['ogv'] },
  ],
  audio: [
    { mime: 'audio/wav', extensions: ['wav'], picker: true },
    { mime: 'audio/vnd.wave', extensions: [], aliasOf: 'audio/wav', picker: true },
    { mime: 'audio/x-wav', extensions: [], aliasOf: 'audio/wav', picker: true },
    { mime: 'audio/wave', extensions: [], aliasOf: 'audio/wav', picker: true },
    { mime: 'audio/mpeg', extensions: ['mp3'], picker: true },
    { mime: 'audio/ogg', extensions: ['ogg', 'oga', 'opus'], picker: true },
    { mime: 'audio/ogg; codecs=opus', extensions: [], aliasOf: 'audio/ogg' },
    { mime: 'audio/opus', extensions: [], aliasOf: 'audio/ogg', picker: true },
    { mime: 'audio/webm', extensions: ['webm'], picker: true },
    { mime: 'audio/mp4', extensions: ['m4a'], picker: true },
    { mime: 'audio/x-m4a', extensions: [], aliasOf: 'audio/mp4', picker: true },
    { mime: 'audio/aac', extensions: ['aac'], picker: true },
    { mime: 'audio/flac', extensions: ['flac'], picker: true },
    { mime: 'audio/x-flac', extensions: [], aliasOf: 'audio/flac', picker: true },
  ],
  image: [
    { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'] },
    { mime: 'image/png', extensions: ['png'] },
    { mime: 'image/gif', extensions: ['gif'] },
    { mime: 'image/webp', extensions: ['webp'] },
    { mime: 'image/heic', extensions: ['heic'] },
  ],
} as const satisfies Record<'video' | 'audio' | 'image', readonly MediaFormat[]>;

/**
 * The types a message file's bytes may sniff as, per message type. WebM and MP4 containers sniff as video even
 * when they only carry sound, so those count as audio too.
 */
export const MESSAGE_MIME_TYPES: Record<MessageType, ReadonlySet<string>> = {
  video: new Set(MEDIA_FORMATS.video.map((f) => f.mime)),
  audio: new Set([...MEDIA_FORMATS.audio.map((f) => f.mime), 'video/webm', 'video/mp4']),
};

const picked = (formats: readonly MediaFormat[]) => formats.filter((f) => f.picker);

/** The message file input's `accept` list per message type. */
export const MESSAGE_FILE_ACCEPT: Record<MessageType, string> = {
  video: [
    ...picked(MEDIA_FORMATS.video).map((f) => f.mime),
    ...picked(MEDIA_FORMATS.video).flatMap((f) => f.extensions.map((e) => `.${e}`)),
  ].join(','),
  audio: 'audio/*',
};

/** Extension → type: a type's own extensions first, then its aliases' (served as the type they alias). */
function byExtension(formats: readonly MediaFormat[]): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const f of formats) for (const ext of f.extensions) if (!f.aliasOf && !map.has(ext)) map.set(ext, f.mime);
  for (const f of formats) for (const ext of f.extensions) if (f.aliasOf && !map.has(ext)) map.set(ext, f.aliasOf);
  return map;
}

const extensionOf = (fileName: string) => {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  return base.includes('.') ? base.slice(base.lastIndexOf('.') + 1).toLowerCase() : '';
};

/** For a chosen file the browser left untyped (some leave .mov or .avi untyped): the type its extension names. */
const MESSAGE_EXTENSIONS: Record<MessageType, ReadonlyMap<string, string>> = {
  video: byExtension(picked(MEDIA_FORMATS.video)),
  audio: byExtension(picked(MEDIA_FORMATS.audio)),
};

/**
 * A chosen message file's type: the browser's own when it is of the message's kind, otherwise the one its
 * extension names (a recorded-in-browser webm audio may arrive as video/webm); null when neither fits.
 */
export function messageFileType(file: { name: string; type: string }, kind: MessageType): string | null {
  if (file.type.startsWith(`${kind}/`)) return file.type;
  return MESSAGE_EXTENSIONS[kind].get(extensionOf(file.name)) ?? null;
}

const SERVED = byExtension([...MEDIA_FORMATS.image, ...MEDIA_FORMATS.video, ...MEDIA_FORMATS.audio]);

/** The Content-Type a stored media file is served with, from its name's extension. */
export function servedContentType(fileName: string): string {
  return SERVED.get(extensionOf(fileName)) ?? 'application/octet-stream';
}
