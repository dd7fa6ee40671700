import { HttpError, fieldError } from './errors';

/**
 * Errors of multipart uploads, one mapping for every multipart route (logo, plan, both lot-import
 * and both lead-import routes, staff and customer vouchers, wallet QR): docs/security.md items 6
 * and 30.10 (a body without a boundary or without its closing boundary was a 500).
 */

/** Spanish message of a multipart body that cannot be read. */
export const MALFORMED_UPLOAD_MESSAGE = 'El archivo no llegó completo o el formulario no es válido: vuelva a adjuntarlo';

/** @fastify/multipart codes meaning "no usable file part" (not multipart, or past the part counts). */
const NOT_MULTIPART_CODES = new Set([
  'FST_INVALID_MULTIPART_CONTENT_TYPE',
  'FST_NO_FORM_DATA',
  'FST_PARTS_LIMIT',
  'FST_FILES_LIMIT',
  'FST_FIELDS_LIMIT',
]);

/**
 * Codes and messages of a malformed multipart body: busboy's "Multipart: Boundary not found" (no
 * `boundary` parameter; busboy sets no code), "Unexpected end of form" / "Unexpected end of
 * multipart data" / a premature close and, on the part being read, "Part terminated early due to
 * unexpected end of multipart data" (or "Preamble terminated early…") — the closing boundary
 * never came; "Malformed part header"; streamsearch's "The needle cannot have a length bigger than
 * 256" (a `boundary` parameter over 252 characters, where RFC 2046 allows 70); and
 * @fastify/multipart's prototype poisoning refusal. None of them carries a code of its own.
 */
const MALFORMED_CODES = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'FST_PROTO_VIOLATION']);
const MALFORMED_MESSAGES =
  /^(Multipart: Boundary not found|Unexpected end of (form|multipart data)|(Part|Preamble) terminated early|Malformed (part header|urlencoded form)|Premature close|The needle cannot have a length bigger than)/i;

/** Messages for one upload field. */
export interface UploadMessages {
  /** No file part (or not multipart at all). */
  missing: string;
  /** Over the route's size limit. */
  tooLarge: string;
}

/**
 * Turns an error thrown while reading a multipart body into the route's 422 on `field`.
 * @returns the HttpError to throw: `tooLarge` for FST_REQ_FILE_TOO_LARGE, `missing` for a body
 *   that is not multipart or has no usable part, {@link MALFORMED_UPLOAD_MESSAGE} for a malformed
 *   or truncated body; any other error (already an HttpError, or a real bug) unchanged.
 */
export function uploadError(error: unknown, field: string, messages: UploadMessages): unknown {
  if (error instanceof HttpError) return error;
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fieldError(field, messages.tooLarge);
  if (code !== undefined && NOT_MULTIPART_CODES.has(code)) return fieldError(field, messages.missing);
  if ((code !== undefined && MALFORMED_CODES.has(code)) || (typeof message === 'string' && MALFORMED_MESSAGES.test(message))) {
    return fieldError(field, MALFORMED_UPLOAD_MESSAGE);
  }
  return error;
}
