import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { MESSAGES } from '../../server/errors';
import { registerRefusedBodyDrain } from '../../server/platform/refused-bodies';
import { useTestApp, useTestDatabase } from './harness';

/**
 * A body over a route's limit is answered 413 with a readable answer, also for a client that
 * writes the whole body before reading (the `pusher` package, Python's http.client, most server
 * SDKs): docs/security.md 30.15. Sent over a raw socket so that nothing reads early.
 */

/** The status line and body of the answer, or the socket error that ended the exchange. */
interface Exchange {
  answer: string;
  error: string | null;
  /** Body bytes written before the socket failed or closed. */
  written: number;
}

/**
 * Writes a POST of `bodyBytes` bytes to `path` (content-length set) in 64 KiB chunks, respecting
 * back-pressure, and only then waits for the answer.
 */
function postWholeBodyFirst(port: number, path: string, bodyBytes: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const received: Buffer[] = [];
    let written = 0;
    let error: string | null = null;
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => resolve({ answer: Buffer.concat(received).toString(), error, written }));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const write = () => {
      while (written < bodyBytes && !socket.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, bodyBytes - written));
        written += piece.length;
        if (!socket.write(piece)) return void socket.once('drain', write);
      }
      // Everything sent: half-close, as a client that waits for the answer to its request.
      if (!socket.destroyed) socket.end();
    };
    socket.once('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${bodyBytes}\r\nConnection: close\r\n\r\n`,
      );
      write();
    });
  });
}

describe('oversized request bodies', () => {
  const db = useTestDatabase('sqlite');
  const ctx = useTestApp(db);

  it('a 50 MB body on the trigger API and on API routes: 413 (or the 401 sent before the body) readable, not a reset connection', async () => {
    await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx().app.server.address() as AddressInfo;
    const cases = [
      { path: `/apps/${ctx().config.pusher.appId}/events`, status: 413, message: MESSAGES.payloadTooLarge },
      { path: '/api/auth/login', status: 413, message: MESSAGES.payloadTooLarge },
      { path: '/api/leads', status: 401, message: MESSAGES.unauthenticated },
    ];
    for (const { path, status, message } of cases) {
      const exchange = await postWholeBodyFirst(port, path, 50 * 1024 * 1024);
      expect(exchange.error, `${path}: ${exchange.answer.slice(0, 200)}`).toBeNull();
      expect(exchange.answer, path).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(exchange.answer, path).toContain(JSON.stringify({ message }));
    }
  }, 120_000);

  it('past the drain limit the connection is closed: a refused body is never read without end', async () => {
    const app = Fastify({ bodyLimit: 1024 });
    registerRefusedBodyDrain(app, 1024 * 1024);
    app.post('/x', async () => ({}));
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const total = 256 * 1024 * 1024;
      const exchange = await postWholeBodyFirst(port, '/x', total);
      expect(exchange.written).toBeLessThan(total);
      expect(exchange.error).not.toBeNull();
    } finally {
      await app.close();
    }
  }, 120_000);
});
