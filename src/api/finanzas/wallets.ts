import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  walletResponseSchema,
  walletsPageSchema,
  type CreateWalletRequest,
  type UpdateWalletRequest,
  type Wallet,
} from '../../schemas/finanzas/wallets';

/**
 * Finanzas → Billetera Digital (staff base, 'Acceso módulo finanzas' + 'Acceso submódulo
 * billeteras digitales'; contract in src/schemas/finanzas/wallets.ts). Every function throws
 * {@link import('../client').ApiError} on failure: 422 carries field errors (a repeated phone, a QR
 * that is not a PNG/JPEG or over 1 MB), 409 a stale edit, 404 an unknown wallet or a missing QR.
 */
export function createWalletsApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<Wallet> => (await request(walletResponseSchema, run)).data;
  return {
    /** GET wallets: `q` (phone, holder), filters `kind`, `active`; sort kind|holder|phone. */
    list: (query: ListQuery) => request(walletsPageSchema, () => client.main('wallets', { query: listParams(query) })),
    /** GET wallets/{id}. */
    get: (id: number) => one(() => client.main(`wallets/${id}`)),
    /** POST wallets → 201 `{data}` (no QR yet). */
    create: (body: CreateWalletRequest) => one(() => client.main('wallets', { method: 'POST', body })),
    /** PATCH wallets/{id} (any subset, with the `version` read). */
    update: (id: number, body: UpdateWalletRequest) => one(() => client.main(`wallets/${id}`, { method: 'PATCH', body })),
    /** DELETE wallets/{id} → 204. */
    remove: async (id: number): Promise<void> => {
      try {
        await client.main(`wallets/${id}`, { method: 'DELETE' });
      } catch (e) {
        throw toApiError(e);
      }
    },
    /** POST wallets/{id}/qr, multipart `qr` (PNG/JPEG ≤ 1 MB) → the wallet with its new `qr_url`. */
    uploadQr: (id: number, file: Blob, filename = 'qr') => {
      const body = new FormData();
      body.append('qr', file, filename);
      return one(() => client.main(`wallets/${id}/qr`, { method: 'POST', body }));
    },
    /**
     * GET the QR image bytes (authenticated: an `<img src>` cannot send the bearer token).
     * @param qrUrl the wallet's `qr_url` (`/api/wallets/{id}/qr?v=…`) or a path relative to the main base.
     */
    qrBlob: async (qrUrl: string): Promise<Blob> => {
      try {
        return await client.main<Blob, 'blob'>(qrUrl.replace(/^\/?api\//, ''), { responseType: 'blob' });
      } catch (e) {
        throw toApiError(e);
      }
    },
  };
}
export type WalletsApi = ReturnType<typeof createWalletsApi>;
