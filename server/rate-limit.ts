import type { FastifyInstance } from 'fastify';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { AppConfig } from './config';
import { IP_LIMIT_WINDOW_MINUTES } from './config';
import { MINUTE_MS } from './clock';
import { tooManyRequests } from './errors';

/**
 * Per-IP rate limiting with @fastify/rate-limit (docs/architecture.md: login, reset). Registered
 * with `global: false`; a route opts in with `config: { rateLimit: publicAuthRateLimit(config) }`.
 * Exceeding it answers 429 with the Spanish message of `errors.ts`.
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => tooManyRequests(),
  });
}

/** Limit of the public auth routes (login, registration, reset): LOGIN_RATE_LIMIT_PER_IP per minute and IP. */
export function publicAuthRateLimit(config: Pick<AppConfig, 'loginRateLimitPerIp'>): RateLimitOptions {
  return { max: config.loginRateLimitPerIp, timeWindow: IP_LIMIT_WINDOW_MINUTES * MINUTE_MS };
}
