/**
 * Schedule maths bench (issue "CRM and sales" → Performance: a 360-row FRANCES schedule in ≤ 5 ms):
 * the median time of src/lib/comercio/schedule.ts `buildSchedule` for 360 and 12 monthly
 * instalments of each method, and the 360-row time as a ratio to the 12-row one in the same run
 * (ratios compare across machines; the absolute figure is the target's).
 *
 *   npx tsx scripts/bench-schedules.ts        (also part of `npm run bench`)
 */
import { Temporal } from 'temporal-polyfill';
import { buildSchedule, SCHEDULE_METHODS, type ScheduleMethod } from '../src/lib/comercio/schedule';

const RUNS = 200;

/** Median milliseconds of one schedule, after a warm-up. */
function median(method: ScheduleMethod, instalments: number): number {
  const input = {
    financedCents: 12_345_678,
    instalments,
    monthlyRatePercent: '1.75',
    method,
    firstDueDate: Temporal.PlainDate.from('2026-01-31'),
  };
  for (let i = 0; i < 20; i++) buildSchedule(input);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    buildSchedule(input);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

console.log(
  `${'method'.padEnd(16)} ${'360 rows ms'.padStart(12)} ${'12 rows ms'.padStart(11)} ${'ratio'.padStart(7)}  target 360 rows ≤ 5 ms`,
);
let over = false;
for (const method of SCHEDULE_METHODS) {
  const long = median(method, 360);
  const short = median(method, 12);
  over ||= long > 5;
  console.log(
    `${method.padEnd(16)} ${long.toFixed(3).padStart(12)} ${short.toFixed(3).padStart(11)} ${`${(long / short).toFixed(1)}×`.padStart(7)}  ${long <= 5 ? 'OK' : 'OVER TARGET'}`,
  );
}
if (over) process.exitCode = 1;
