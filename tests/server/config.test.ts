import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, testConfig } from '../../server/config';

/** Environment parsing (server/config.ts). */

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databasePath: resolve('./data/parcela.db'),
      databaseUrl: null,
      seed: 'demo',
      nodeEnv: 'development',
      publicUrl: 'http://localhost:8080',
      tokenIdleHours: 8,
      tokenAbsoluteDays: 7,
      scryptLogN: 17,
      loginRateLimitPerIp: 20,
      loginRateLimitPerAccount: 10,
      pusher: {
        appId: 'parcela',
        key: 'parcela-key',
        secret: expect.stringMatching(/^[0-9a-f]{64}$/),
        secretConfigured: false,
        host: null,
        port: null,
        scheme: 'http',
        cluster: 'mt1',
      },
    });
  });

  it('reads the environment, ignoring empty values', () => {
    const config = loadConfig({
      PORT: '9000',
      DATABASE_URL: 'postgres://u@db:5432/parcela',
      DATABASE_PATH: '',
      SEED: 'none',
      PUBLIC_URL: 'https://parcela.example/',
      TOKEN_IDLE_HOURS: '2',
      PUSHER_HOST: 'ws.example',
      PUSHER_PORT: '443',
    });
    expect(config).toMatchObject({
      port: 9000,
      databaseUrl: 'postgres://u@db:5432/parcela',
      databasePath: resolve('./data/parcela.db'),
      seed: 'none',
      publicUrl: 'https://parcela.example',
      tokenIdleHours: 2,
      pusher: { host: 'ws.example', port: 443, scheme: 'https' },
    });
  });

  it('uses PUSHER_APP_SECRET when set, otherwise a random secret per process', () => {
    expect(loadConfig({ PUSHER_APP_SECRET: 's3creto' }).pusher).toMatchObject({ secret: 's3creto', secretConfigured: true });
    expect(loadConfig({}).pusher.secret).not.toBe(loadConfig({}).pusher.secret);
  });

  it('rejects invalid values with every problem listed', () => {
    expect(() => loadConfig({ PORT: 'abc', SEED: 'all', DATABASE_URL: 'mysql://x' })).toThrow(/PORT.*SEED.*DATABASE_URL|PORT/);
  });

  it('testConfig lowers the scrypt cost and raises the limits', () => {
    expect(testConfig()).toMatchObject({ nodeEnv: 'test', seed: 'none', scryptLogN: 12, loginRateLimitPerIp: 10_000 });
    expect(testConfig({ loginRateLimitPerIp: 2 }).loginRateLimitPerIp).toBe(2);
  });
});
