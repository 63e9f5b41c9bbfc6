import type { MyGift } from '@giftlens/contract/my-gifts';

/**
 * The list's media links are signed afresh on every answer (a new expiry and signature for the same file). Handing
 * a new URL to an <img> or a playing <video> reloads it, so a refresh of the list would restart the reaction the
 * sender is watching. A keeper gives back the URL it first saw for a file for `maxAgeMs` (well inside the links'
 * lifetime), and only then the newer one.
 */
export function createUrlKeeper(maxAgeMs: number, now: () => number = Date.now) {
  const kept = new Map<string, { url: string; at: number }>();
  /** The file a URL points at, whatever its signature: the path, and whether it asks for a download. */
  const fileOf = (url: string) => {
    const u = new URL(url, 'http://local');
    return `${u.origin}${u.pathname}${u.searchParams.has('download') ? '#download' : ''}`;
  };
  const keep = (url: string | null): string | null => {
    if (url === null) return null;
    const key = fileOf(url);
    const t = now();
    const entry = kept.get(key);
    if (entry && t - entry.at < maxAgeMs) return entry.url;
    kept.set(key, { url, at: t });
    return url;
  };
  return {
    keep,
    /** The gift with every media link replaced by the one kept for its file. */
    gift: (g: MyGift): MyGift => ({
      ...g,
      photoUrl: keep(g.photoUrl),
      messageUrl: keep(g.messageUrl),
      posterUrl: keep(g.posterUrl),
      downloads: { message: keep(g.downloads.message), reaction: keep(g.downloads.reaction) },
      reaction: g.reaction
        ? { ...g.reaction, url: keep(g.reaction.url) ?? g.reaction.url, posterUrl: keep(g.reaction.posterUrl) }
        : null,
    }),
  };
}
