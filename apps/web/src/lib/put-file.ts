import { userText } from './user-text.ts';

/**
 * PUTs a file to a signed upload URL with XMLHttpRequest, because fetch cannot report upload progress.
 * Resolves on any 2xx; rejects with the server's contract text (the plan's size limit, an expired link) or
 * `failText` otherwise.
 */
export function putFile(
  url: string,
  file: Blob,
  contentType: string,
  onProgress: (percent: number) => void,
  failText: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    if (contentType) xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
        return;
      }
      let message = failText;
      try {
        const body = JSON.parse(xhr.responseText) as { error?: unknown } | null;
        message = userText(body?.error, failText);
      } catch {
        // Not JSON: keep the caller's text.
      }
      reject(new Error(message));
    };
    xhr.onerror = () => reject(new Error(failText));
    xhr.onabort = () => reject(new Error(failText));
    xhr.send(file);
  });
}
