import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/client';
import { createWalletQrMachine, qrFileError } from '../../../src/machines/finanzas/wallet-qr.machine';
import { QR_MAX_BYTES, type Wallet } from '../../../src/schemas/finanzas/wallets';

/** The wallet's QR (Billetera Digital editor): shown from the authenticated blob, checked before upload, the list told to refresh. */
describe('walletQr machine', () => {
  const wallet: Wallet = { id: 7, kind: 'YAPE', phone: '987654321', holder: 'X', active: true, qr_url: '/api/wallets/7/qr?v=2' };

  it('starts empty without a QR, uploads, loads the new image and sends list.refresh to the list it was given', async () => {
    const received: string[] = [];
    const list = createActor(createMachine({ on: { '*': { actions: ({ event }) => void received.push(event.type) } } })).start();
    const qrBlob = vi.fn(async () => new Blob(['png']));
    const machine = createWalletQrMachine({
      walletsApi: { qrBlob, uploadQr: vi.fn(async () => wallet) },
      reportApiError: vi.fn(),
      objectUrls: { create: () => 'blob:qr' },
    });
    const actor = createActor(machine, { input: { target: 7, url: null, list } }).start();
    expect(actor.getSnapshot().matches({ image: 'empty' })).toBe(true);
    actor.send({ type: 'image.upload', file: new File(['png'], 'qr.png', { type: 'image/png' }) });
    await waitFor(actor, (s) => s.context.objectUrl === 'blob:qr');
    expect(qrBlob).toHaveBeenCalledWith(wallet.qr_url);
    expect(received).toEqual(['list.refresh']);
    actor.stop();
  });

  it('refuses another type or more than 1 MB before sending, and shows the server refusal', async () => {
    expect(qrFileError({ type: 'image/gif', size: 10 })).toBe('El QR debe ser una imagen PNG o JPEG');
    expect(qrFileError({ type: 'image/jpeg', size: QR_MAX_BYTES + 1 })).toBe('El QR debe pesar como máximo 1 MB');
    expect(qrFileError({ type: 'image/png', size: QR_MAX_BYTES })).toBeNull();
    const uploadQr = vi.fn(async () => {
      throw new ApiError(422, 'Los datos no son válidos', { qr: ['El QR debe ser una imagen PNG o JPEG'] });
    });
    const machine = createWalletQrMachine({
      walletsApi: { qrBlob: vi.fn(), uploadQr },
      reportApiError: vi.fn(),
      objectUrls: { create: () => 'x' },
    });
    const actor = createActor(machine, { input: { target: 7, url: null } }).start();
    actor.send({ type: 'image.upload', file: new File(['x'], 'qr.gif', { type: 'image/gif' }) });
    expect(actor.getSnapshot().context.uploadError).toBe('El QR debe ser una imagen PNG o JPEG');
    expect(uploadQr).not.toHaveBeenCalled();
    actor.send({ type: 'image.upload', file: new File(['x'], 'qr.png', { type: 'image/png' }) });
    await waitFor(actor, (s) => s.matches({ upload: 'idle' }) && s.context.uploadError !== null);
    expect(actor.getSnapshot().context.uploadError).toBeTruthy();
    actor.stop();
  });
});
