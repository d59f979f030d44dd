import type { ServiceClient } from '../api/serviceClient';

/** Images larger than this are not shown (a result card needs a thumbnail, not a poster). */
export const MAX_IMAGE_BYTES = 512 * 1024;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml']);

/**
 * The full address of a result image: the program domain followed by `image_url`. Only a path on the
 * program's own origin is accepted, so a crafted `image_url` cannot make main fetch another host.
 */
export function programImageUrl(programUrl: string, path: string): string | null {
  if (!programUrl || !path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return null;
  let program: URL;
  let url: URL;
  try {
    program = new URL(programUrl);
    url = new URL(`${programUrl.replace(/\/+$/, '')}${path}`);
  } catch {
    return null;
  }
  if (url.origin !== program.origin || url.username || url.password) return null;
  // `..` segments must not climb out of the program's own path (the Offline sandbox serves it under /program).
  const base = program.pathname.replace(/\/+$/, '');
  if (!url.pathname.startsWith(`${base}/`)) return null;
  return url.toString();
}

/** Fetched in main and handed over as a data: URL; null when it is missing, too large or not an image. */
export async function imageDataUrl(
  api: ServiceClient,
  programUrl: string,
  path: string,
): Promise<string | null> {
  const url = programImageUrl(programUrl, path);
  if (!url) return null;
  const image = await api.fetchPublicBytes(url, MAX_IMAGE_BYTES);
  if (!image || !IMAGE_TYPES.has(image.contentType)) return null;
  // An SVG shown through <img> runs no script, so it is safe to pass on as it is.
  return `data:${image.contentType};base64,${Buffer.from(image.bytes).toString('base64')}`;
}
