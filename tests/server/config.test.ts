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

  it('keeps answers per revision unless ANSWER_CACHE=off; refuses other values', () => {
    expect(loadConfig({}).keepAnswers).toBe(true);
    expect(loadConfig({ ANSWER_CACHE: 'off' }).keepAnswers).toBe(false);
    expect(() => loadConfig({ ANSWER_CACHE: 'no' })).toThrow();
  });

  it('uses PUSHER_APP_SECRET when set, otherwise a random secret per process', () => {
    expect(loadConfig({ PUSHER_APP_SECRET: 's3creto' }).pusher).toMatchObject({ secret: 's3creto', secretConfigured: true });
    expect(loadConfig({}).pusher.secret).not.toBe(loadConfig({}).pusher.secret);
  });

  it('rejects invalid values with every problem listed', () => {
    expect(() => loadConfig({ PORT: 'abc', SEED: 'all', DATABASE_URL: 'mysql://x' })).toThrow(/PORT.*SEED.*DATABASE_URL|PORT/);
  });

  it('e-mail: off without SMTP_URL outside production; SMTP_URL and MAIL_FROM turn it on; MAIL=off turns it off', () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: null, from: 'Parcela <no-reply@localhost>', enabled: false });
    const on = loadConfig({ SMTP_URL: 'smtp://user:pw@mail.example:587', MAIL_FROM: 'Parcela <no-reply@parcela.example>' }).mail;
    expect(on).toEqual({ smtpUrl: 'smtp://user:pw@mail.example:587', from: 'Parcela <no-reply@parcela.example>', enabled: true });
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example', MAIL: 'off' }).mail.enabled).toBe(false);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
  });

  it('production refuses to start without PUBLIC_URL, SMTP_URL and MAIL_FROM, unless MAIL=off (issue 11 item 10)', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/set PUBLIC_URL, SMTP_URL, MAIL_FROM \(or MAIL=off/);
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://parcela.example', SMTP_URL: 'smtp://mail.example' })).toThrow(
      /set MAIL_FROM/,
    );
    const complete = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://parcela.example',
      SMTP_URL: 'smtp://mail.example',
      MAIL_FROM: 'a@b.pe',
    };
    expect(loadConfig(complete).mail.enabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', MAIL: 'off' }).mail.enabled).toBe(false);
    // The credential in SMTP_URL is never in the error text.
    expect(() => loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://u:s3creto@mail.example' })).toThrow(/^((?!s3creto).)*$/s);
  });

  it('testConfig lowers the scrypt cost and raises the limits', () => {
    expect(testConfig()).toMatchObject({ nodeEnv: 'test', seed: 'none', scryptLogN: 12, loginRateLimitPerIp: 10_000 });
    expect(testConfig({ loginRateLimitPerIp: 2 }).loginRateLimitPerIp).toBe(2);
  });
});
