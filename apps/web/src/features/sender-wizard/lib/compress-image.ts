import { IMAGE_COMPRESSION } from '@giftlens/contract/constants';
import imageCompression from 'browser-image-compression';

/**
 * Shrinks a gift photo before upload (1200x1200, quality 0.8 down to 0.5, 500 KB target).
 * Files already under the target are kept as they are; if compression fails the original is used.
 */
export async function compressGiftImage(file: File): Promise<File> {
  if (file.size <= IMAGE_COMPRESSION.maxSizeMB * 1024 * 1024) return file;
  try {
    const blob = await imageCompression(file, {
      maxSizeMB: IMAGE_COMPRESSION.maxSizeMB,
      maxWidthOrHeight: IMAGE_COMPRESSION.maxWidthOrHeight,
      initialQuality: IMAGE_COMPRESSION.initialQuality,
      // The library's worker loads its code from a CDN; stay on the main thread so nothing leaves our origin.
      useWebWorker: false,
    });
    return new File([blob], file.name, { type: blob.type || file.type, lastModified: Date.now() });
  } catch {
    return file;
  }
}
