/**
 * Date rules of the registration schema (docs/product.md §3 "Customer registration": adult, real date). The
 * schema uses plain calendar arithmetic so the web app need not load temporal-polyfill with it;
 * these tests hold it to Temporal's answers.
 */
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { ADULT_AGE, createRegistrationSchema } from '../../../src/schemas/session';

const VALID = {
  id_document_type: '1',
  document_number: '45678912',
  name: 'Lucía',
  surname: 'Quispe',
  birthday_date: '1990-04-01',
  email: 'lucia@example.pe',
  phone: '987654321',
  password: 'secreto123',
};

function birthdayErrors(birthday: string, today: string): string[] {
  const result = createRegistrationSchema(today).safeParse({ ...VALID, birthday_date: birthday });
  if (result.success) return [];
  return result.error.issues.filter((i) => i.path[0] === 'birthday_date').map((i) => i.message);
}

/** Temporal's answer: a real date, not after today, at least 18 whole years ago. */
function temporalAccepts(birthday: string, today: string): boolean {
  const b = Temporal.PlainDate.from(birthday, { overflow: 'reject' });
  const t = Temporal.PlainDate.from(today);
  return Temporal.PlainDate.compare(b, t) <= 0 && b.until(t, { largestUnit: 'years' }).years >= ADULT_AGE;
}

describe('registration schema: birthday', () => {
  it('accepts an adult and refuses a minor', () => {
    expect(birthdayErrors('1990-04-01', '2025-06-15')).toEqual([]);
    expect(birthdayErrors('2010-01-01', '2025-06-15')).toEqual(['Debe ser mayor de edad para registrarse']);
  });

  it('turns 18 on the birthday itself, not the day before', () => {
    expect(birthdayErrors('2007-06-15', '2025-06-15')).toEqual([]);
    expect(birthdayErrors('2007-06-16', '2025-06-15')).toEqual(['Debe ser mayor de edad para registrarse']);
  });

  it('refuses a future date and impossible or malformed dates', () => {
    expect(birthdayErrors('2030-01-01', '2025-06-15')).toEqual(['Debe ser mayor de edad para registrarse']);
    expect(birthdayErrors('1990-02-30', '2025-06-15')).toEqual(['Fecha inválida']);
    expect(birthdayErrors('1990-13-01', '2025-06-15')).toEqual(['Fecha inválida']);
    expect(birthdayErrors('1900-02-29', '2025-06-15')).toEqual(['Fecha inválida']);
    expect(birthdayErrors('18/04/1992', '2025-06-15')).toEqual(['Fecha inválida']);
    expect(birthdayErrors('', '2025-06-15')).toEqual(['Fecha inválida']);
  });

  it('agrees with Temporal around leap days and birthdays', () => {
    const todays = ['2022-02-28', '2022-03-01', '2024-02-28', '2024-02-29', '2024-03-01', '2025-12-31', '2026-01-01'];
    const birthdays: string[] = [];
    for (const year of [1999, 2000, 2003, 2004, 2005, 2006, 2007, 2008]) {
      for (const md of ['01-01', '02-27', '02-28', '02-29', '03-01', '12-31']) {
        const iso = `${year}-${md}`;
        try {
          Temporal.PlainDate.from(iso);
          birthdays.push(iso);
        } catch {
          expect(birthdayErrors(iso, '2025-06-15')).toEqual(['Fecha inválida']);
        }
      }
    }
    for (const today of todays) {
      for (const birthday of birthdays) {
        expect(birthdayErrors(birthday, today).length === 0, `${birthday} on ${today}`).toBe(temporalAccepts(birthday, today));
      }
    }
  });
});
