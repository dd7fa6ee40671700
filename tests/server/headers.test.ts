import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { buildTestApp, dialects, useTestDatabase } from './harness';

/**
 * Issue 11 item 17: HSTS on https installations, no-store on API answers, configurable trustProxy,
 * connect-src limited to this origin and the configured realtime host.
 */

describe.each(dialects)('response headers and proxies (%s)', (dialect) => {
  const db = useTestDatabase(dialect);

  it('API answers (the login included) carry Cache-Control: no-store; HSTS only when PUBLIC_URL is https', async () => {
    const plain = await buildTestApp(db());
    const secure = await buildTestApp(db(), { publicUrl: 'https://parcela.example.pe' });
    try {
      const health = await plain.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.headers['cache-control']).toBe('no-store');
      const login = await plain.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { user: 'x@parcela.test', password: 'Secreta#2026', user_type: 'COLLABORATOR' },
      });
      expect(login.headers['cache-control']).toBe('no-store');
      expect(health.headers['strict-transport-security']).toBeUndefined();
      const secureHealth = await secure.app.inject({ method: 'GET', url: '/api/health' });
      expect(secureHealth.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    } finally {
      await plain.app.close();
      await secure.app.close();
    }
  });

  it("connect-src allows only 'self' and the configured realtime host (not any ws:/wss: host)", async () => {
    const connectSrc = (csp: unknown) =>
      String(csp)
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('connect-src'));
    const own = await buildTestApp(db(), { publicUrl: 'http://localhost:8080' });
    const external = await buildTestApp(db(), {
      pusher: { ...loadConfig({ PUSHER_HOST: 'ws.parcela.example.pe', PUSHER_PORT: '6001', PUSHER_SCHEME: 'https' }).pusher },
    });
    const anyPort = await buildTestApp(db(), { pusher: { ...loadConfig({ PUSHER_HOST: 'soketi.local' }).pusher } });
    try {
      const page = (app: typeof own.app) => app.inject({ method: 'GET', url: '/api/health' });
      // Built-in service: the page's own origin ('self'; PUBLIC_URL's host spelled out for browsers before CSP 3).
      expect(connectSrc((await page(own.app)).headers['content-security-policy'])).toBe(
        "connect-src 'self' ws://localhost:8080 wss://localhost:8080",
      );
      expect(connectSrc((await page(external.app)).headers['content-security-policy'])).toBe(
        "connect-src 'self' wss://ws.parcela.example.pe:6001",
      );
      expect(connectSrc((await page(anyPort.app)).headers['content-security-policy'])).toBe(
        "connect-src 'self' ws://soketi.local:* wss://soketi.local:*",
      );
    } finally {
      await own.app.close();
      await external.app.close();
      await anyPort.app.close();
    }
  });

  it('TRUST_PROXY: without it every client behind a proxy shares one per-IP limit; with it each forwarded client has its own', async () => {
    const attempt = (app: Awaited<ReturnType<typeof buildTestApp>>['app'], ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'x-forwarded-for': ip },
        payload: { user: 'x@parcela.test', password: 'Secreta#2026', user_type: 'COLLABORATOR' },
      });
    const direct = await buildTestApp(db(), { loginRateLimitPerIp: 2 });
    const proxied = await buildTestApp(db(), { loginRateLimitPerIp: 2, trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy });
    try {
      const directCodes = [];
      const proxiedCodes = [];
      for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
        directCodes.push((await attempt(direct.app, ip)).statusCode);
        proxiedCodes.push((await attempt(proxied.app, ip)).statusCode);
      }
      expect(directCodes).toEqual([422, 422, 429]);
      expect(proxiedCodes).toEqual([422, 422, 422]);
    } finally {
      await direct.app.close();
      await proxied.app.close();
    }
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY/);
  });
});
