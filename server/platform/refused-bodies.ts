import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Answers sent while the request body is still arriving — 413 for a body over the route's limit,
 * 401/403 or 415 before the body is read, an upload refused part-way — reach the client
 * (docs/security.md 30.15). Fastify marks such an answer `Connection: close` and Node closes the
 * socket right after writing it; the bytes the client is still sending then hit a closed socket,
 * the kernel resets the connection, and a client that writes its whole body before reading (the
 * `pusher` package, Python's http.client, most server SDKs) sees EPIPE/ECONNRESET instead of the
 * answer. Here the answer keeps the connection (`Connection: keep-alive`, so Node does not close
 * it) and the rest of the body is read and discarded — at most {@link REFUSED_BODY_DRAIN_BYTES}
 * more bytes, after which the socket is destroyed (the old reset, for absurd bodies only), and
 * never longer than `REQUEST_TIMEOUT_SECONDS` (Node's request timeout still bounds the request).
 */

/** Most bytes of a refused body read (and discarded) after its answer: beyond them the socket is destroyed. */
export const REFUSED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;

/** True when the request declares a body and it has not arrived whole (false under `inject`, whose request has no `complete`). */
function bodyStillArriving(raw: IncomingMessage): boolean {
  if (raw.complete !== false) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Registers the `onSend` hook that, for an answer whose request body is still arriving, keeps the
 * connection and reads the rest of the body, counting, destroying the socket past `maxBytes`.
 * (The body is read by a listener of its own, attached before the answer is written: once Node
 * "dumps" an unread body itself, its bytes are no longer counted anywhere.)
 */
export function registerRefusedBodyDrain(app: FastifyInstance, maxBytes: number = REFUSED_BODY_DRAIN_BYTES): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const raw = request.raw;
    if (!bodyStillArriving(raw)) return payload;
    void reply.header('connection', 'keep-alive');
    let drained = 0;
    raw.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > maxBytes) raw.socket.destroy();
    });
    raw.resume();
    return payload;
  });
}
