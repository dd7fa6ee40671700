import { z } from 'zod';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../src/schemas/common';
import { constraintViolation, type ConstraintViolation } from './db/constraint-errors';

/**
 * Error responses of every base (docs/api.md "Errors"): every non-2xx body is
 * `{ message, errors? }` with Spanish texts, `errors` mapping a field path (joined with '.') to
 * its messages.
 */

/** Spanish messages of the generic errors. */
export const MESSAGES = {
  validation: 'Los datos enviados no son válidos',
  unknownField: 'Campo no permitido',
  notFound: 'Recurso no encontrado',
  tooManyRequests: 'Demasiados intentos. Inténtelo nuevamente en unos minutos.',
  unauthenticated: 'Sesión no válida o expirada',
  forbidden: 'No tiene permiso para realizar esta acción',
  subscriptionLapsed: 'La suscripción de la empresa está vencida',
  badRequest: 'La solicitud no es válida',
  invalidJson: 'El cuerpo de la solicitud no es un JSON válido',
  unsupportedMediaType: 'Tipo de contenido no admitido',
  payloadTooLarge: 'La solicitud es demasiado grande',
  internal: 'Ocurrió un error inesperado. Inténtelo nuevamente.',
  missingReference: 'Alguno de los registros indicados no existe',
  stillReferenced: 'El registro está en uso por otros datos y no se puede eliminar',
  outOfBounds: 'Alguno de los valores está fuera de los límites permitidos',
  requiredMissing: 'Falta un dato obligatorio',
  alreadyExists: 'Ya existe un registro con esos datos',
} as const;

/** Field path → Spanish messages (the `errors` member of {@link ErrorBody}). */
export type FieldErrors = Record<string, string[]>;

/** An error that becomes the HTTP response `{ message, errors? }` with `status`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** The response body. */
  toBody(): ErrorBody {
    return this.errors ? { message: this.message, errors: this.errors } : { message: this.message };
  }
}

/** 422 with one message per field; the top-level message is `message` (default: the generic validation one). */
export function validationError(errors: FieldErrors, message: string = MESSAGES.validation): HttpError {
  return new HttpError(422, message, errors);
}

/** 422 whose message and single field error are the same text (wrong credentials, invalid link…). */
export function fieldError(field: string, message: string): HttpError {
  return validationError({ [field]: [message] }, message);
}

/** 401: no token, or an expired/revoked one, or an inactive account (docs/product.md §7 → /auth/access). */
export const unauthenticated = () => new HttpError(401, MESSAGES.unauthenticated);
/** 403: the account type or permission does not allow the route. */
export const forbidden = () => new HttpError(403, MESSAGES.forbidden);
/** 402: the company's subscription lapsed (docs/product.md §7 → /auth/pago). */
export const subscriptionLapsed = () => new HttpError(402, MESSAGES.subscriptionLapsed);
/** 404: the record does not exist (or its id does not decode). */
export const notFound = () => new HttpError(404, MESSAGES.notFound);
/** 409: a state conflict; `message` says which. */
export const conflict = (message: string) => new HttpError(409, message);
/** The largest id either database stores: ids are PostgreSQL `integer` identities (migrations' `columnTypes`). */
export const MAX_ID = 2_147_483_647;
/**
 * A path `{id}` → positive integer ≤ {@link MAX_ID}. @throws HttpError 404 when it is not one (a
 * larger id names no record on either database; on PostgreSQL it would be a 22003 "fuera de los
 * límites" 422 instead of the 404 SQLite gives: docs/security.md 33.68).
 */
export function parseId(raw: string): number {
  if (!/^[1-9]\d{0,9}$/.test(raw)) throw notFound();
  const id = Number(raw);
  if (id > MAX_ID) throw notFound();
  return id;
}
/** 429: a rate or attempt limit was hit. */
export const tooManyRequests = () => new HttpError(429, MESSAGES.tooManyRequests);

/** The parts of a zod issue needed to place it on a field. */
interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  keys?: readonly string[];
}

/**
 * Groups zod issues by field path. Unknown keys (strict objects) get one "Campo no permitido" per
 * key; issues on the whole object go under `fallbackField` (e.g. 'body').
 */
export function issuesToFieldErrors(issues: readonly IssueLike[], fallbackField = 'body'): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      for (const key of issue.keys) add(base ? `${base}.${key}` : key, MESSAGES.unknownField);
    } else {
      add(base || fallbackField, issue.message);
    }
  }
  return errors;
}

/** 422 for a failed zod parse (used where a schema depends on the request, e.g. registration). */
export function zodValidationError(error: z.core.$ZodError, fallbackField = 'body'): HttpError {
  return validationError(issuesToFieldErrors(error.issues, fallbackField));
}

/**
 * Spanish texts for zod's built-in issues. Messages written in the shared schemas take precedence
 * (zod applies a global map only when a schema has none). Installed once by `createApp`.
 */
export function installSpanishZodMessages(): void {
  z.config({
    customError: (issue) => {
      switch (issue.code) {
        case 'invalid_type':
          return issue.input === undefined ? 'Este campo es obligatorio' : 'El valor no tiene el tipo esperado';
        case 'too_small':
          return issue.origin === 'string'
            ? `Debe tener al menos ${String(issue.minimum)} caracteres`
            : `Debe ser como mínimo ${String(issue.minimum)}`;
        case 'too_big':
          return issue.origin === 'string'
            ? `Debe tener como máximo ${String(issue.maximum)} caracteres`
            : `Debe ser como máximo ${String(issue.maximum)}`;
        case 'invalid_value':
          return 'El valor no está permitido';
        case 'invalid_format':
          return 'El formato no es válido';
        case 'unrecognized_keys':
          return MESSAGES.unknownField;
        default:
          return 'El valor no es válido';
      }
    },
  });
}

const STATUS_MESSAGES: Record<number, string> = {
  400: MESSAGES.badRequest,
  401: MESSAGES.unauthenticated,
  402: MESSAGES.subscriptionLapsed,
  403: MESSAGES.forbidden,
  404: MESSAGES.notFound,
  413: MESSAGES.payloadTooLarge,
  415: MESSAGES.unsupportedMediaType,
  429: MESSAGES.tooManyRequests,
};

/** Answers of the database constraint safety net (docs/security.md 30.11). */
const CONSTRAINT_ANSWERS: Record<ConstraintViolation, { status: 409 | 422; message: string }> = {
  MISSING_REFERENCE: { status: 422, message: MESSAGES.missingReference },
  STILL_REFERENCED: { status: 409, message: MESSAGES.stillReferenced },
  CHECK: { status: 422, message: MESSAGES.outOfBounds },
  NOT_NULL: { status: 422, message: MESSAGES.requiredMissing },
  UNIQUE: { status: 409, message: MESSAGES.alreadyExists },
};

/** Fastify error codes of unparseable bodies (answered 400, never 500). */
const BODY_PARSE_ERRORS = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/**
 * The app's error handler: schema validation → 422 with field errors; {@link HttpError} → its
 * status and body; other 4xx from Fastify or plugins (bad JSON, media type, size, rate limit) →
 * their status with a Spanish message; a database constraint violation that no service turned
 * into its own answer → 422 (missing reference, CHECK, NOT NULL) or 409 (still referenced,
 * UNIQUE) with a Spanish message, logged as a warning (server/db/constraint-errors.ts); anything
 * else → logged 500.
 */
export function errorHandler(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof HttpError) {
    void reply.status(error.statusCode).send(error.toBody());
    return;
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({
      path: v.instancePath.split('/').filter(Boolean),
      message: v.message ?? MESSAGES.validation,
      code: v.keyword,
      keys: (v.params as { keys?: string[] }).keys,
    }));
    void reply.status(422).send(validationError(issuesToFieldErrors(issues, error.validationContext ?? 'body')).toBody());
    return;
  }
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) {
    const message = BODY_PARSE_ERRORS.has(error.code) ? MESSAGES.invalidJson : (STATUS_MESSAGES[status] ?? MESSAGES.badRequest);
    void reply.status(status).send({ message });
    return;
  }
  const violation = constraintViolation(error, request.method);
  if (violation) {
    request.log.warn({ err: error, violation }, 'Database constraint refused the request');
    const { status: constraintStatus, message } = CONSTRAINT_ANSWERS[violation];
    void reply.status(constraintStatus).send({ message });
    return;
  }
  request.log.error({ err: error }, 'Unhandled error');
  void reply.status(500).send({ message: MESSAGES.internal });
}
