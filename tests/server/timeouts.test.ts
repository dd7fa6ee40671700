import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { OVERLOAD_MESSAGE, OVERLOAD_RETRY_AFTER_SECONDS } from '../../server/app';
import { loadConfig } from '../../server/config';
import { buildTestApp, dialects, useTestDatabase } from './harness';

/** Issue 11 item 5 (part): a request whose body trickles in is cut off at the request timeout. */

describe.each(dialects)('request timeouts (%s)', (dialect) => {
  const db = useTestDatabase(dialect);

  it('a POST that never finishes its body gets a 408 and its socket closed after REQUEST_TIMEOUT_SECONDS', async () => {
    const { app } = await buildTestApp(db(), { requestTimeoutMs: 500 });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"user":',
          );
          const drip = setInterval(() => socket.write(' '), 100);
          socket.on('close', () => clearInterval(drip));
        });
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
        setTimeout(() => reject(new Error('still open after 5 s')), 5000);
      });
      const elapsed = Date.now() - started;
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(elapsed).toBeGreaterThanOrEqual(400);
      expect(elapsed).toBeLessThan(3000);
    } finally {
      await app.close();
    }
    expect(loadConfig({}).requestTimeoutMs).toBe(120_000);
  });
});

/** Issue 11 item 5: idle connections are cut off, and an overloaded server answers 503 at once. */
describe.each(dialects)('connection timeout and overload (%s)', (dialect) => {
  const db = useTestDatabase(dialect);

  it('a connection that stays silent is closed after CONNECTION_TIMEOUT_SECONDS, long before the request timeout', async () => {
    const { app } = await buildTestApp(db(), { connectionTimeoutMs: 300, requestTimeoutMs: 30_000 });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const started = Date.now();
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
        setTimeout(() => reject(new Error('still open after 5 s')), 5000).unref();
      });
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(5000);
    } finally {
      await app.close();
    }
    expect(loadConfig({}).connectionTimeoutMs).toBe(60_000);
    expect(loadConfig({ CONNECTION_TIMEOUT_SECONDS: '5' }).connectionTimeoutMs).toBe(5_000);
  });

  it('while the event loop lags past OVERLOAD_MAX_EVENT_LOOP_DELAY_MS every request gets a fast Spanish 503 with Retry-After, then service resumes', async () => {
    const { app } = await buildTestApp(db(), { overload: { maxEventLoopDelayMs: 100, maxHeapMb: 0 } });
    /** Polls /api/health (never sleeping past 10 ms) until it answers `status`, for at most 5 s. */
    const answers = async (status: number) => {
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        const res = await app.inject({ method: 'GET', url: '/api/health' });
        if (res.statusCode === status) return res;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return undefined;
    };
    try {
      // (Other test files share this machine: the loop may already lag now and then.)
      expect((await answers(200))?.statusCode).toBe(200);
      // Simulated sustained overload: the loop is held for 300 ms at a time, with only a timer's turn
      // between holds, until the server answers 503 (at most 5 s). under-pressure judges the *mean*
      // loop delay of its sampling window and resets it each window, so one single hold can be
      // diluted by the quick samples around it (or read just before its sample lands) on a loaded
      // machine; a lag that keeps on is what it exists for.
      const overloaded = await (async () => {
        const deadline = Date.now() + 5000;
        while (Date.now() < deadline) {
          const until = Date.now() + 300;
          while (Date.now() < until) {
            // busy
          }
          await new Promise((resolve) => setTimeout(resolve, 0));
          const res = await app.inject({ method: 'GET', url: '/api/health' });
          if (res.statusCode === 503) return res;
        }
        return undefined;
      })();
      expect(overloaded?.json()).toEqual({ message: OVERLOAD_MESSAGE });
      expect(overloaded?.headers['retry-after']).toBe(String(OVERLOAD_RETRY_AFTER_SECONDS));
      expect((await answers(200))?.statusCode).toBe(200);
    } finally {
      await app.close();
    }
    expect(loadConfig({}).overload).toEqual({ maxEventLoopDelayMs: 1000, maxHeapMb: 0 });
  });
});
