import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signatures of the Pusher Channels protocol (Pusher "Authentication and authorization
 * signatures" and "HTTP API reference"): private-channel authorisations and trigger-API requests.
 * Pure functions; the secret never leaves them.
 */

/** HMAC-SHA256 of `data` with `secret`, lower-case hex. */
export function hmacSha256Hex(secret: string, data: string): string {
  return createHmac('sha256', secret).update(data, 'utf8').digest('hex');
}

/** MD5 of a request body, lower-case hex (the trigger API's `body_md5`). */
export function md5Hex(body: string): string {
  return createHash('md5').update(body, 'utf8').digest('hex');
}

/** Constant-time comparison of two strings (false when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The `auth` string that lets socket `socketId` subscribe to private `channel`:
 * `<key>:<HMAC-SHA256 hex of "<socketId>:<channel>" with secret>`.
 */
export function channelAuthSignature(key: string, secret: string, socketId: string, channel: string): string {
  return `${key}:${hmacSha256Hex(secret, `${socketId}:${channel}`)}`;
}

/** True when `auth` is the valid {@link channelAuthSignature} for this socket and channel (constant time). */
export function verifyChannelAuth(key: string, secret: string, socketId: string, channel: string, auth: unknown): boolean {
  return typeof auth === 'string' && safeEqual(auth, channelAuthSignature(key, secret, socketId, channel));
}

/** Most seconds a trigger request's `auth_timestamp` may differ from now (Pusher: 600). */
export const TRIGGER_TIMESTAMP_TOLERANCE_SECONDS = 600;

/** A trigger-API request as received: method, path, decoded query parameters, raw body. */
export interface SignedRequest {
  method: string;
  /** Path without query string, e.g. '/apps/parcela/events'. */
  path: string;
  query: Record<string, string | string[] | undefined>;
  /** Raw body text ('' when none). */
  body: string;
}

/** Why a trigger request was refused (for logs and the 401 message; never includes the secret). */
export type TriggerRejection =
  'missing parameters' | 'unknown key' | 'unsupported auth_version' | 'stale timestamp' | 'body_md5 mismatch' | 'bad signature';

/**
 * The string a trigger request signs: "METHOD\nPATH\nQUERY", QUERY being every parameter but
 * `auth_signature`, keys lower-cased, sorted by key, joined as `key=value` with '&' (values as
 * sent, unencoded — what the official `pusher` package signs).
 */
export function triggerStringToSign(request: Pick<SignedRequest, 'method' | 'path' | 'query'>): string {
  const pairs = Object.entries(request.query)
    .filter(([key, value]) => key !== 'auth_signature' && value !== undefined)
    .map(([key, value]) => [key.toLowerCase(), Array.isArray(value) ? value.join(',') : String(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [request.method.toUpperCase(), request.path, pairs.map(([k, v]) => `${k}=${v}`).join('&')].join('\n');
}

/**
 * Verifies a signed trigger-API request: `auth_key` is the app key, `auth_version` 1.0,
 * `auth_timestamp` within {@link TRIGGER_TIMESTAMP_TOLERANCE_SECONDS} of `nowMs`, `body_md5` the MD5
 * of the body (required when there is a body), `auth_signature` the HMAC-SHA256 of
 * {@link triggerStringToSign} with the secret.
 * @param nowMs current epoch milliseconds (the signer's real clock).
 * @returns null when valid, else the reason.
 */
export function verifyTriggerRequest(request: SignedRequest, key: string, secret: string, nowMs: number): TriggerRejection | null {
  const single = (name: string): string | undefined => {
    const value = request.query[name];
    return typeof value === 'string' ? value : undefined;
  };
  const authKey = single('auth_key');
  const timestamp = single('auth_timestamp');
  const version = single('auth_version');
  const signature = single('auth_signature');
  if (!authKey || !timestamp || !version || !signature) return 'missing parameters';
  if (!safeEqual(authKey, key)) return 'unknown key';
  if (version !== '1.0') return 'unsupported auth_version';
  const seconds = Number(timestamp);
  if (!Number.isFinite(seconds) || Math.abs(nowMs / 1000 - seconds) > TRIGGER_TIMESTAMP_TOLERANCE_SECONDS) return 'stale timestamp';
  const bodyMd5 = single('body_md5');
  if (request.body !== '' || bodyMd5 !== undefined) {
    if (bodyMd5 === undefined || !safeEqual(bodyMd5.toLowerCase(), md5Hex(request.body))) return 'body_md5 mismatch';
  }
  if (!safeEqual(signature.toLowerCase(), hmacSha256Hex(secret, triggerStringToSign(request)))) return 'bad signature';
  return null;
}
