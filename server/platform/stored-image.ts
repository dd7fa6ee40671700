import type { FastifyReply } from 'fastify';

/**
 * Sends an image kept in the database to a caller the route has already checked (wallet QRs,
 * payment vouchers): its sniffed type, `nosniff` and a sandboxing CSP so the browser never runs it,
 * cached privately for a day, with `Last-Modified` when the route knows when it was stored.
 */
export function sendStoredImage(reply: FastifyReply, image: { contentType: string; data: Buffer; updatedAt?: string }) {
  reply
    .header('content-type', image.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, max-age=86400');
  if (image.updatedAt) reply.header('last-modified', new Date(image.updatedAt).toUTCString());
  return reply.send(image.data);
}
