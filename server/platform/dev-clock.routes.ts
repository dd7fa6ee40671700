import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DAY_MS, type ShiftedClock } from '../clock';
import type { AppDeps } from '../context';
import { DEV_BASE } from './bases';

/** POST /dev/clock body: how far to move the server's clock, in ms (1 ms … 400 days). */
export const devClockRequestSchema = z.strictObject({
  advance_ms: z
    .number()
    .int()
    .min(1)
    .max(400 * DAY_MS),
});

/**
 * POST /dev/clock (NODE_ENV=test only, see app.ts): moves the server's clock forward and runs the
 * time-driven jobs at once (the reservations' expiry, the late-fee job and its reminders), so an e2e test sees "a reservation left to
 * expire" without waiting days. Answers `{now}` (ISO instant). Never registered in development or
 * production: there the clock is the system's.
 */
export function devClockRoutes(
  _deps: AppDeps,
  clock: ShiftedClock,
  jobs: ReadonlyArray<{ runUntilDone(): Promise<unknown> }>,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      `${DEV_BASE}/clock`,
      { config: { access: 'public' }, schema: { body: devClockRequestSchema, response: { 200: z.object({ now: z.string() }) } } },
      async (request) => {
        clock.advance(request.body.advance_ms);
        for (const job of jobs) await job.runUntilDone();
        return { now: clock.now().toISOString() };
      },
    );
  };
}
