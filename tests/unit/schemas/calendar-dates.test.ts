/**
 * The request date rule (src/schemas/dates.ts, docs/domain.md "Dates"): `YYYY-MM-DD`, a real day
 * (Temporal), 1900–2100; and the registration schema's Temporal-free twin agrees with it.
 */
import { describe, expect, it } from 'vitest';
import { CALENDAR_DATE_MESSAGES } from '../../../src/schemas/common';
import { calendarDateProblem, calendarDateSchema } from '../../../src/schemas/dates';
import { createRegistrationSchema } from '../../../src/schemas/session';

describe('calendar dates', () => {
  it('accepts real days within 1900–2100, leap days included', () => {
    for (const date of ['1900-01-01', '2000-02-29', '2024-02-29', '2026-12-31', '2100-12-31'])
      expect(calendarDateProblem(date), date).toBeNull();
  });

  it('refuses days that do not exist, other forms and days outside the bounds', () => {
    for (const date of ['2026-13-45', '2027-02-30', '0000-00-00', '2026-04-31', '2026-00-10', '2026-01-00', '1900-02-29', '2100-02-29'])
      expect(calendarDateProblem(date), date).toBe('notInCalendar');
    for (const date of ['', '2026-1-01', '20260101', '+002026-01-01', '2026-01-01T00:00', ' 2026-01-01', '01/02/2026'])
      expect(calendarDateProblem(date), date).toBe('format');
    for (const date of ['1899-12-31', '0001-01-01', '2101-01-01', '9999-12-31']) expect(calendarDateProblem(date), date).toBe('outOfRange');
  });

  it('the schema: the field message for a non-date, the bounds message outside them', () => {
    const schema = calendarDateSchema('Ingrese la fecha');
    expect(schema.parse('2026-03-02')).toBe('2026-03-02');
    const message = (value: unknown) => schema.safeParse(value).error?.issues.map((i) => i.message);
    expect(message('2027-02-30')).toEqual(['Ingrese la fecha']);
    expect(message(20260302)).toEqual(['Ingrese la fecha']);
    expect(message('2101-01-01')).toEqual([CALENDAR_DATE_MESSAGES.outOfRange]);
    expect(
      calendarDateSchema()
        .safeParse('2026-13-45')
        .error?.issues.map((i) => i.message),
    ).toEqual([CALENDAR_DATE_MESSAGES.invalid]);
  });

  it('the registration schema (no Temporal) accepts and refuses the same birthdays', () => {
    const registration = createRegistrationSchema('2100-12-31');
    const valid = {
      id_document_type: '1',
      document_number: '45678912',
      name: 'Lucía',
      surname: 'Quispe',
      email: 'lucia@example.pe',
      phone: '987654321',
      password: 'secreto123',
    };
    for (const year of ['0000', '1899', '1900', '1999', '2000', '2023', '2024', '2082']) {
      for (let month = 0; month <= 13; month += 1) {
        for (const day of [0, 1, 28, 29, 30, 31, 32]) {
          const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const accepted = registration.safeParse({ ...valid, birthday_date: date }).success;
          expect(accepted, date).toBe(calendarDateProblem(date) === null);
        }
      }
    }
  });
});
