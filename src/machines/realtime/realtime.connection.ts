import { fromCallback } from 'xstate';
import type { RealtimeEvent, RealtimeInput } from './realtime.machine';

/**
 * The realtime connection loaded on demand (issue "Shell"; performance: laravel-echo and pusher-js
 * stay out of the login page's bundle). The session machine lives in the entry chunk and invokes
 * the realtime machine there; this callback actor fetches realtime.actors.ts (laravel-echo over
 * pusher-js) only when the machine goes live, 5 s after the top bar appears (docs/product.md §4). A chunk that
 * cannot be fetched reports pusher-js's `failed` state. Stopping before the import ends connects
 * nothing.
 */
export const lazyEchoConnection = fromCallback<RealtimeEvent, RealtimeInput>(({ input, sendBack }) => {
  let disconnect: (() => void) | null = null;
  let stopped = false;
  import('./realtime.actors').then(
    (module) => {
      if (!stopped) disconnect = module.connectEcho(input, sendBack);
    },
    (error: unknown) => {
      console.error('[realtime] the connection code could not be loaded:', error);
      if (!stopped) sendBack({ type: 'pusher.stateChanged', state: 'failed' });
    },
  );
  return () => {
    stopped = true;
    disconnect?.();
  };
});
