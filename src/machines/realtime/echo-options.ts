import type { EchoInfo } from '../../schemas/session';

/** Where the page runs (window.location's parts that matter here). */
export interface PageLocation {
  hostname: string;
  port: string;
  protocol: string;
}

/** laravel-echo's pusher options derived from echo_info (without `Pusher`, `auth` and `broadcaster`). */
export interface EchoConnectionOptions {
  key: string;
  cluster: string;
  forceTLS: boolean;
  wsHost?: string;
  wsPort?: number;
  wssPort?: number;
  authEndpoint: string;
  enabledTransports: ('ws' | 'wss')[];
  disableStats: true;
}

/** Laravel Echo's own default channel-authorisation path. */
export const DEFAULT_AUTH_PATH = '/broadcasting/auth';

/**
 * laravel-echo options from call 3's echo_info (docs/product.md §3 fixes only broadcaster, key, cluster and
 * encrypted; the rest is optional — tolerant reader, docs/contracts.md):
 * - `wsHost` absent → Pusher's own host for the cluster (the hosted service); `null` → this page's
 *   host and port (our server serves the WebSocket itself); a string → that host, on `wsPort`.
 * - `forceTLS` absent → `encrypted`; a page served over https always uses TLS.
 * - `authEndpoint` absent → Laravel's `/broadcasting/auth` on the staff API's origin
 *   (`mainBase`, e.g. `https://api.example.pe/api` → `https://api.example.pe/broadcasting/auth`).
 */
export function echoOptionsFor(info: EchoInfo, page: PageLocation, mainBase: string): EchoConnectionOptions {
  const secure = (info.forceTLS ?? info.encrypted) || page.protocol === 'https:';
  const options: EchoConnectionOptions = {
    key: info.key,
    cluster: info.cluster,
    forceTLS: secure,
    enabledTransports: ['ws', 'wss'],
    disableStats: true,
    authEndpoint: info.authEndpoint ?? defaultAuthEndpoint(mainBase),
  };
  if (info.wsHost !== undefined) {
    const pagePort = Number(page.port) || (secure ? 443 : 80);
    const port = info.wsPort ?? pagePort;
    Object.assign(options, { wsHost: info.wsHost ?? page.hostname, wsPort: port, wssPort: port });
  }
  return options;
}

function defaultAuthEndpoint(mainBase: string): string {
  return /^https?:\/\//i.test(mainBase) ? new URL(DEFAULT_AUTH_PATH, mainBase).toString() : DEFAULT_AUTH_PATH;
}
