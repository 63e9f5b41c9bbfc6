/**
 * The containers a message or reaction may be stored in, named by the type their bytes sniff as (file-type): the
 * extension the stored key gets, and the one ffmpeg demuxer that may open it. Nothing a client names (a file name,
 * a declared type) chooses either: an upload is opened only as what its bytes are, so a playlist or concat script
 * behind an MP3 header is read as MP3 and fails (decision 038).
 */
export interface StoredFormat {
  /** The sniffed type this entry is for. */
  mime: string;
  /** The stored key's extension, which also sets the Content-Type it is served with (contract media.ts). */
  ext: string;
  /** `ffmpeg -f`: the demuxer the file is opened with. */
  demuxer: string;
  /** What ffprobe names that demuxer in `format_name`. */
  formatName: string;
}

const MOV = { demuxer: 'mov', formatName: 'mov,mp4,m4a,3gp,3g2,mj2' };
const MATROSKA = { demuxer: 'matroska', formatName: 'matroska,webm' };
const OGG = { demuxer: 'ogg', formatName: 'ogg' };

const FORMATS: readonly StoredFormat[] = [
  { mime: 'video/mp4', ext: 'mp4', ...MOV },
  { mime: 'video/x-m4v', ext: 'mp4', ...MOV },
  { mime: 'video/quicktime', ext: 'mov', ...MOV },
  { mime: 'video/3gpp', ext: 'mp4', ...MOV },
  { mime: 'video/3gpp2', ext: 'mp4', ...MOV },
  { mime: 'audio/mp4', ext: 'm4a', ...MOV },
  { mime: 'audio/x-m4a', ext: 'm4a', ...MOV },
  { mime: 'video/webm', ext: 'webm', ...MATROSKA },
  { mime: 'video/x-matroska', ext: 'mkv', ...MATROSKA },
  { mime: 'video/vnd.avi', ext: 'avi', demuxer: 'avi', formatName: 'avi' },
  { mime: 'video/x-msvideo', ext: 'avi', demuxer: 'avi', formatName: 'avi' },
  { mime: 'video/mpeg', ext: 'mpg', demuxer: 'mpeg', formatName: 'mpeg' },
  { mime: 'video/ogg', ext: 'ogv', ...OGG },
  { mime: 'audio/ogg', ext: 'ogg', ...OGG },
  { mime: 'audio/ogg; codecs=opus', ext: 'ogg', ...OGG },
  { mime: 'audio/opus', ext: 'ogg', ...OGG },
  { mime: 'audio/wav', ext: 'wav', demuxer: 'wav', formatName: 'wav' },
  { mime: 'audio/mpeg', ext: 'mp3', demuxer: 'mp3', formatName: 'mp3' },
  { mime: 'audio/aac', ext: 'aac', demuxer: 'aac', formatName: 'aac' },
  { mime: 'audio/x-flac', ext: 'flac', demuxer: 'flac', formatName: 'flac' },
  { mime: 'audio/flac', ext: 'flac', demuxer: 'flac', formatName: 'flac' },
];

const BY_MIME = new Map(FORMATS.map((f) => [f.mime, f]));
/** A stored key's extension back to its format (the first entry with it: one demuxer per extension). */
const BY_EXT = new Map<string, StoredFormat>();
for (const f of FORMATS) if (!BY_EXT.has(f.ext)) BY_EXT.set(f.ext, f);

/** The format for a sniffed type, or null when GiftLens does not store that container. */
export const formatOfType = (mime: string): StoredFormat | null => BY_MIME.get(mime) ?? null;

/** The format a stored key was named for at confirm (its extension came from the sniffed bytes), or null. */
export function formatOfKey(key: string): StoredFormat | null {
  const ext = /\.([a-z0-9]+)$/.exec(key)?.[1];
  return ext ? (BY_EXT.get(ext) ?? null) : null;
}

/** The renditions we write ourselves, opened as MP4 only. */
export const MP4_FORMAT: StoredFormat = { mime: 'video/mp4', ext: 'mp4', ...MOV };

/** The stored key for checked bytes: the upload's own name with the extension of what they really are. */
export const keyWithFormat = (key: string, format: Pick<StoredFormat, 'ext'>) => `${key.replace(/\.[^./]*$/, '')}.${format.ext}`;

/**
 * Every key confirm may have stored an upload's bytes under: what a process killed between storing them and marking
 * the upload confirmed leaves, for housekeeping to remove once the upload has expired.
 */
export const everyStoredKeyFor = (key: string) => [...new Set(FORMATS.map((f) => keyWithFormat(key, f)))];
