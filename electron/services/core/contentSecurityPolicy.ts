/**
 * The renderer's Content-Security-Policy, the same in Electron and in browser mode. Everything the
 * renderer shows comes from its own bundle or through main (images from the service are fetched by
 * main and handed over as data: URLs), so nothing but 'self' is needed. No 'unsafe-eval': zod runs
 * jitless. Inline styles are needed by MUI's emotion.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
