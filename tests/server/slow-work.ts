/**
 * Time limits of server tests whose work scales with the machine (docs/testing.md "Time limits"):
 * seeding the whole demo (~1–3 s quiet on SQLite, ~7 s on PostgreSQL, with the migrations around
 * it) must not meet its limit on a machine three times slower and loaded (the 30 s default of the
 * server project did, at 30 034 ms). Only these tests get it; everything else keeps the default.
 */
export const SEED_TIMEOUT_MS = 180_000;
