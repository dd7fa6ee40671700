import SQLite from 'better-sqlite3';
import pg from 'pg';

/**
 * Recognises a database constraint violation in a driver error, on both dialects
 * (docs/security.md 30.11): the safety net under the services' own checks, so that a rule a
 * service forgot to check, or a race between its check and its write, is a Spanish 422/409 and
 * not a 500. The services stay responsible for precise, per-field messages.
 *
 * - SQLite (better-sqlite3 `SqliteError.code`): SQLITE_CONSTRAINT_FOREIGNKEY, _CHECK, _NOTNULL,
 *   _UNIQUE, _PRIMARYKEY, and _TRIGGER when a trigger raised "CHECK constraint failed: …" (the
 *   numeric-limit triggers of migration 0006 stand in for CHECK constraints there).
 * - PostgreSQL (`pg.DatabaseError.code`, SQLSTATE): 23503 foreign key, 23514 check, 23502 not
 *   null, 23505 unique, 23P01 exclusion; 22003 numeric value out of range (a number past its
 *   column's type, the PostgreSQL side of a CHECK on a limit).
 */

/** What a violated constraint means for the request. */
export type ConstraintViolation =
  /** A referenced record does not exist (insert or update). */
  | 'MISSING_REFERENCE'
  /** The record is still referenced by others (delete). */
  | 'STILL_REFERENCED'
  /** A CHECK (or a value out of its column's range). */
  | 'CHECK'
  /** A required column left empty. */
  | 'NOT_NULL'
  /** Another record already holds the value. */
  | 'UNIQUE';

const SQLITE_CODES: Record<string, ConstraintViolation> = {
  SQLITE_CONSTRAINT_CHECK: 'CHECK',
  SQLITE_CONSTRAINT_NOTNULL: 'NOT_NULL',
  SQLITE_CONSTRAINT_UNIQUE: 'UNIQUE',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'UNIQUE',
};

const POSTGRES_CODES: Record<string, ConstraintViolation> = {
  '23514': 'CHECK',
  '22003': 'CHECK',
  '23502': 'NOT_NULL',
  '23505': 'UNIQUE',
  '23P01': 'UNIQUE',
};

/**
 * The constraint `error` violated, or null when it is not a constraint violation.
 * @param method the request's HTTP method: SQLite reports both kinds of foreign-key failure alike,
 *   so a DELETE's is taken as "still referenced" and any other's as "missing reference"
 *   (PostgreSQL's message says which).
 */
export function constraintViolation(error: unknown, method: string): ConstraintViolation | null {
  if (error instanceof SQLite.SqliteError) {
    if (error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return method === 'DELETE' ? 'STILL_REFERENCED' : 'MISSING_REFERENCE';
    if (error.code === 'SQLITE_CONSTRAINT_TRIGGER') return /^CHECK constraint failed/.test(error.message) ? 'CHECK' : null;
    return SQLITE_CODES[error.code] ?? null;
  }
  if (error instanceof pg.DatabaseError && error.code !== undefined) {
    if (error.code === '23503') return /^update or delete on table/.test(error.message) ? 'STILL_REFERENCED' : 'MISSING_REFERENCE';
    return POSTGRES_CODES[error.code] ?? null;
  }
  return null;
}
