import { limaWallTimeToInstant, todayInLima } from '../src/lib/dates';

/** Source of the current instant, injected so tests control time (token expiry, reset links, limits). */
export interface Clock {
  now(): Date;
}

/** The real clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export interface ManualClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the clock to an instant (ISO string or Date). */
  set(instant: Date | string): void;
}

/** Creates a {@link ManualClock} starting at `start` (default 2026-03-02T15:00:00Z, a Monday 10:00 in Lima). */
export function createManualClock(start: Date | string = '2026-03-02T15:00:00.000Z'): ManualClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (instant) => {
      current = new Date(instant).getTime();
    },
  };
}

/** Today's calendar date in America/Lima (docs/product.md §1) by the injected clock, as `YYYY-MM-DD`. */
export function todayInLimaBy(clock: Clock): string {
  return todayInLima(clock.now());
}

/**
 * The first instant of calendar day `day` (YYYY-MM-DD) in Lima, as stored instants are written
 * (ISO 8601 UTC with milliseconds), so `created_at >= startOfLimaDay(today)` selects what happened
 * today in Lima.
 */
export function startOfLimaDay(day: string): string {
  return new Date(limaWallTimeToInstant(`${day}T00:00`) ?? `${day}T05:00:00Z`).toISOString();
}

/** The clock's instant as an ISO 8601 UTC string (the wire and storage format of instants). */
export function nowIso(clock: Clock): string {
  return clock.now().toISOString();
}

/** One minute in milliseconds. */
export const MINUTE_MS = 60_000;
/** One hour in milliseconds. */
export const HOUR_MS = 60 * MINUTE_MS;
/** One day in milliseconds. */
export const DAY_MS = 24 * HOUR_MS;

/** A clock that runs with the system's time, moved forward on demand (e2e: POST /dev/clock). */
export interface ShiftedClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds (for good: it keeps running from there). */
  advance(ms: number): void;
}

/** The system clock plus an offset that only grows (server/platform/dev-clock.routes.ts). */
export function createShiftedClock(base: Clock = systemClock): ShiftedClock {
  let offset = 0;
  return {
    now: () => new Date(base.now().getTime() + offset),
    advance: (ms) => {
      offset += ms;
    },
  };
}
