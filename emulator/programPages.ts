import type { ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { type RequestContext, type Route, route } from './router';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'Content-Type': `${type}; charset=utf-8`,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'public, max-age=3600',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}

/** A simple generated picture: a colour derived from the name, and its initials. */
function svgFor(label: string, initials: string): string {
  const hue = createHash('sha256').update(label).digest().readUInt16BE(0) % 360;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180" viewBox="0 0 320 180">` +
    `<rect width="320" height="180" fill="hsl(${hue},55%,45%)"/>` +
    `<circle cx="260" cy="40" r="70" fill="hsl(${(hue + 40) % 360},60%,60%)" opacity="0.5"/>` +
    `<text x="24" y="118" font-family="sans-serif" font-size="64" font-weight="bold" fill="#fff">${escapeXml(initials)}</text>` +
    `<text x="24" y="160" font-family="sans-serif" font-size="14" fill="#fff">${escapeXml(label.slice(0, 40))}</text>` +
    `</svg>`
  );
}

function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter((w) => /^[A-Z]/.test(w))
    .slice(0, 2)
    .map((w) => w.charAt(0))
    .join('');
}

function notFoundPage(res: ServerResponse): void {
  send(res, 404, 'text/plain', 'Not found');
}

function opportunityImage(ctx: RequestContext): void {
  const match = /^(\d+)\.svg$/.exec(ctx.params['file'] ?? '');
  const opportunity = match
    ? ctx.core.catalogue.opportunities.find((o) => o.id === Number(match[1]))
    : undefined;
  if (!opportunity) return notFoundPage(ctx.res);
  send(ctx.res, 200, 'image/svg+xml', svgFor(opportunity.title, initialsOf(opportunity.title)));
}

function causeImage(ctx: RequestContext): void {
  const match = /^(\d{3}-\d{9})\.svg$/.exec(ctx.params['file'] ?? '');
  const cause = match ? ctx.core.catalogue.causeById.get(match[1] ?? '') : undefined;
  if (!cause) return notFoundPage(ctx.res);
  send(ctx.res, 200, 'image/svg+xml', svgFor(cause.name, initialsOf(cause.name)));
}

function donatePage(ctx: RequestContext): void {
  const locale = ctx.params['locale'] ?? '';
  const id = Number(ctx.params['id']);
  const opportunity = ctx.core.catalogue.opportunities.find((o) => o.id === id);
  if (!/^[a-z]{2}(-[A-Z]{2})?$/.test(locale) || !opportunity) return notFoundPage(ctx.res);
  const body =
    `<!doctype html><html lang="${escapeXml(locale)}"><head><meta charset="utf-8">` +
    `<title>Donate: ${escapeXml(opportunity.title)}</title></head><body>` +
    `<img src="${escapeXml(ctx.programUrl + opportunity.imageUrl)}" alt="" width="320" height="180">` +
    `<h1>${escapeXml(opportunity.title)}</h1><p>${escapeXml(opportunity.description)}</p>` +
    `<p><em>Offline sandbox: this donation page is served by the local emulator; no payment is taken.</em></p>` +
    `</body></html>`;
  send(ctx.res, 200, 'text/html', body);
}

export const programRoutes: Route[] = [
  route('GET', '/program/images/opportunities/:file', opportunityImage, 'public'),
  route('GET', '/program/images/causes/:file', causeImage, 'public'),
  route('GET', '/program/:locale/campaigns/donate/:id', donatePage, 'public'),
];
