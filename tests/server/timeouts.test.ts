import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
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
          socket.write('POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"user":');
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
