/** echo_info → laravel-echo options: the spec's four fields suffice (tolerant reader, issue 12 item 5). */
import { describe, expect, it } from 'vitest';
import { echoOptionsFor } from '../../../src/machines/realtime/echo-options';
import { echoInfoSchema } from '../../../src/schemas/session';

const page = { hostname: 'app.parcela.pe', port: '', protocol: 'https:' };

describe('echoOptionsFor', () => {
  it("reads echo_info with only docs/product.md §3's four fields (plus an unknown key) and uses Pusher's defaults", () => {
    const info = echoInfoSchema.parse({ broadcaster: 'pusher', key: 'k1', cluster: 'us2', encrypted: true, app_id: 'ignored' });
    const options = echoOptionsFor(info, page, 'https://api.parcela.pe/api');
    expect(options).toMatchObject({ key: 'k1', cluster: 'us2', forceTLS: true, authEndpoint: 'https://api.parcela.pe/broadcasting/auth' });
    expect(options).not.toHaveProperty('wsHost'); // pusher-js then connects to the cluster's host
  });

  it('keeps our server’s explicit values: wsHost null means this page’s host', () => {
    const info = echoInfoSchema.parse({
      broadcaster: 'pusher',
      key: 'k1',
      cluster: 'mt1',
      encrypted: false,
      wsHost: null,
      wsPort: null,
      forceTLS: false,
      authEndpoint: '/broadcasting/auth',
    });
    const options = echoOptionsFor(info, { hostname: 'localhost', port: '8080', protocol: 'http:' }, '/api');
    expect(options).toMatchObject({
      wsHost: 'localhost',
      wsPort: 8080,
      wssPort: 8080,
      forceTLS: false,
      authEndpoint: '/broadcasting/auth',
    });
  });

  it('an external host on its port; a relative API base keeps the relative auth path', () => {
    const info = echoInfoSchema.parse({
      broadcaster: 'pusher',
      key: 'k',
      cluster: 'mt1',
      encrypted: false,
      wsHost: 'ws.example.pe',
      wsPort: 6001,
    });
    const options = echoOptionsFor(info, { hostname: 'localhost', port: '8080', protocol: 'http:' }, '/api');
    expect(options).toMatchObject({ wsHost: 'ws.example.pe', wsPort: 6001, forceTLS: false, authEndpoint: '/broadcasting/auth' });
  });
});
