/**
 * Consumer contract of Finanzas → Bancos and Billetera Digital between `parcela-web` and
 * `parcela-api`, through the real src/api modules: list with a filter and a sort, get, create 201 and
 * 422 with `errors`, update with the version read, stale update 409, delete 204; the wallet's QR
 * upload (multipart `qr`) and read. Every interaction starts from an empty database (docs/contracts.md).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createBankAccountsApi } from '../../../src/api/finanzas/bank-accounts';
import { createWalletsApi } from '../../../src/api/finanzas/wallets';
import { STALE_RECORD_MESSAGE } from '../../../src/schemas/versions';
import { CCI_MESSAGES, bankByCode } from '../../../src/schemas/finanzas/banks';
import { WALLET_MESSAGES } from '../../../src/schemas/finanzas/wallets';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { BANK_ACCOUNT, STAFF_TOKEN, STATES, WALLET } from '../states';

const { like, eachLike, integer, boolean, regex, nullValue } = MatchersV3;

const pact = httpPact();
const banks = (url: string) => createBankAccountsApi(mockClient(url, STAFF_TOKEN));
const wallets = (url: string) => createWalletsApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const meta = (total: number) => ({ page: integer(1), per_page: integer(20), total: integer(total) });
const stale409 = { message: like(STALE_RECORD_MESSAGE), errors: { version: eachLike(like(STALE_RECORD_MESSAGE)) } };
const error422 = (field: string, message: string) => ({
  message: like('Los datos no son válidos'),
  errors: { [field]: eachLike(like(message)) },
});
/** Fixed multipart boundary, so the regenerated pact is byte-identical run after run. */
const PACT_BOUNDARY = 'parcelaPactBoundary';
const QR_PATH = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-pact-')), 'qr.png');
writeFileSync(
  QR_PATH,
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
);

/** A bank account as the app reads it: what docs/domain.md "Bank account" fixes, plus id and version. */
const account = (a: { bank: string; kind: string; currency: string; number: string; cci: string; holder: string }, version = 1) => ({
  id: integer(1),
  bank: like(a.bank),
  kind: regex(/^(AHORROS|CORRIENTE)$/, a.kind),
  currency: regex(/^(PEN|USD)$/, a.currency),
  number: like(a.number),
  cci: regex(/^\d{20}$/, a.cci),
  holder: like(a.holder),
  active: boolean(true),
  version: integer(version),
});
/** A wallet as the app reads it (docs/domain.md "Wallet"). */
const wallet = (w: { kind: string; phone: string; holder: string }, qr: boolean, version = 1) => ({
  id: integer(1),
  kind: regex(/^(YAPE|PLIN)$/, w.kind),
  phone: regex(/^9\d{8}$/, w.phone),
  holder: like(w.holder),
  active: boolean(true),
  qr_url: qr ? regex(/^\/api\/wallets\/\d+\/qr(\?.*)?$/, '/api/wallets/1/qr?v=1') : nullValue(),
  version: integer(version),
});

describe('Bancos (consumer)', () => {
  it('lists the active accounts of a bank sorted by holder', async () => {
    await pact
      .addInteraction()
      .given(STATES.bankAccountExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the active BCP bank accounts sorted by holder')
      .withRequest('GET', '/api/bank-accounts', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', sort: 'holder', active: 'true', bank: 'BCP' }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(account(BANK_ACCOUNT)), meta: meta(1) }))
      .executeTest(async (mock) => {
        const page = await banks(mock.url).list({ page: 1, per_page: 20, sort: 'holder', filters: { active: 'true', bank: 'BCP' } });
        expect(page.data[0]?.cci).toBe(BANK_ACCOUNT.cci);
      });
  });

  it('reads one account', async () => {
    await pact
      .addInteraction()
      .given(STATES.bankAccountExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for one bank account')
      .withRequest('GET', '/api/bank-accounts/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: account(BANK_ACCOUNT) }))
      .executeTest(async (mock) => {
        expect((await banks(mock.url).get(1)).number).toBe(BANK_ACCOUNT.number);
      });
  });

  it('creates an account (201)', async () => {
    const body = {
      bank: 'BBVA',
      kind: 'CORRIENTE' as const,
      currency: 'USD' as const,
      number: '001101800200123456',
      cci: '01101800020012345692',
      holder: 'Empresa de Prueba S.A.C.',
      active: true,
    };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a bank account')
      .withRequest('POST', '/api/bank-accounts', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody({ data: account(body) }))
      .executeTest(async (mock) => {
        expect((await banks(mock.url).create(body)).bank).toBe('BBVA');
      });
  });

  it('refuses a CCI of another bank (422 errors.cci)', async () => {
    const body = { ...BANK_ACCOUNT, bank: 'INTERBANK', active: true };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving("a request to create a bank account whose CCI is another bank's")
      .withRequest('POST', '/api/bank-accounts', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(422, (b) => b.jsonBody(error422('cci', CCI_MESSAGES.bankCode(bankByCode('INTERBANK')!))))
      .executeTest(async (mock) => {
        const error = await caught(banks(mock.url).create(body));
        expect(error.status).toBe(422);
        expect(error.issues.cci?.length).toBeGreaterThan(0);
      });
  });

  it('deactivates an account, sending the version it read', async () => {
    const body = { active: false, version: 1 };
    await pact
      .addInteraction()
      .given(STATES.bankAccountExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to deactivate a bank account')
      .withRequest('PATCH', '/api/bank-accounts/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ data: { ...account(BANK_ACCOUNT, 2), active: boolean(false) } }))
      .executeTest(async (mock) => {
        const updated = await banks(mock.url).update(1, body);
        expect(updated.active).toBe(false);
        expect(updated.version).toBe(2);
      });
  });

  it('refuses an edit of an account another user changed since (409)', async () => {
    const body = { holder: 'Otro titular', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.bankAccountExists, { token: STAFF_TOKEN })
      .given(STATES.recordChangedByAnother, { entity: 'bank_accounts', id: 1 })
      .uponReceiving('a request to update a bank account with a stale version')
      .withRequest('PATCH', '/api/bank-accounts/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody(stale409))
      .executeTest(async (mock) => {
        const error = await caught(banks(mock.url).update(1, body));
        expect(error.status).toBe(409);
        expect(error.issues.version?.[0]).toBe(STALE_RECORD_MESSAGE);
      });
  });

  it('deletes an account (204)', async () => {
    await pact
      .addInteraction()
      .given(STATES.bankAccountExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to delete a bank account')
      .withRequest('DELETE', '/api/bank-accounts/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(204)
      .executeTest(async (mock) => {
        await expect(banks(mock.url).remove(1)).resolves.toBeUndefined();
      });
  });
});

describe('Billetera Digital (consumer)', () => {
  it('lists the Yape wallets sorted by phone', async () => {
    await pact
      .addInteraction()
      .given(STATES.walletExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the Yape wallets sorted by phone')
      .withRequest('GET', '/api/wallets', (b) => b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', sort: 'phone', kind: 'YAPE' }))
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(wallet(WALLET, true)), meta: meta(1) }))
      .executeTest(async (mock) => {
        const page = await wallets(mock.url).list({ page: 1, per_page: 20, sort: 'phone', filters: { kind: 'YAPE' } });
        expect(page.data[0]?.phone).toBe(WALLET.phone);
        expect(page.data[0]?.qr_url).toContain('/qr');
      });
  });

  it('reads one wallet', async () => {
    await pact
      .addInteraction()
      .given(STATES.walletExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for one wallet')
      .withRequest('GET', '/api/wallets/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: wallet(WALLET, true) }))
      .executeTest(async (mock) => {
        expect((await wallets(mock.url).get(1)).kind).toBe('YAPE');
      });
  });

  it('creates a wallet (201, no QR yet)', async () => {
    const body = { kind: 'PLIN' as const, phone: '912345678', holder: 'Empresa de Prueba S.A.C.', active: true };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a wallet')
      .withRequest('POST', '/api/wallets', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody({ data: wallet(body, false) }))
      .executeTest(async (mock) => {
        const created = await wallets(mock.url).create(body);
        expect(created.qr_url).toBeNull();
      });
  });

  it('refuses a second wallet of the same kind and phone (422 errors.phone)', async () => {
    const body = { ...WALLET, active: true };
    await pact
      .addInteraction()
      .given(STATES.walletExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a wallet whose kind and phone are taken')
      .withRequest('POST', '/api/wallets', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(422, (b) => b.jsonBody(error422('phone', WALLET_MESSAGES.duplicatePhone)))
      .executeTest(async (mock) => {
        const error = await caught(wallets(mock.url).create(body));
        expect(error.status).toBe(422);
        expect(error.issues.phone?.length).toBeGreaterThan(0);
      });
  });

  it('updates a wallet, sending the version it read', async () => {
    const body = { holder: 'Inmobiliaria de Prueba', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.walletExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to update a wallet')
      .withRequest('PATCH', '/api/wallets/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ data: wallet({ ...WALLET, holder: body.holder }, true, 2) }))
      .executeTest(async (mock) => {
        expect((await wallets(mock.url).update(1, body)).holder).toBe(body.holder);
      });
  });

  it('refuses an edit of a wallet another user changed since (409)', async () => {
    const body = { holder: 'Otro titular', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.walletExists, { token: STAFF_TOKEN })
      .given(STATES.recordChangedByAnother, { entity: 'wallets', id: 1 })
      .uponReceiving('a request to update a wallet with a stale version')
      .withRequest('PATCH', '/api/wallets/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody(stale409))
      .executeTest(async (mock) => {
        expect((await caught(wallets(mock.url).update(1, body))).status).toBe(409);
      });
  });

  it('deletes a wallet (204)', async () => {
    await pact
      .addInteraction()
      .given(STATES.walletExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to delete a wallet')
      .withRequest('DELETE', '/api/wallets/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(204)
      .executeTest(async (mock) => {
        await expect(wallets(mock.url).remove(1)).resolves.toBeUndefined();
      });
  });

  it('uploads the QR image (multipart qr)', async () => {
    await pact
      .addInteraction()
      .given(STATES.walletExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to upload the QR image of a wallet')
      .withRequest('POST', '/api/wallets/1/qr', (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('image/png', QR_PATH, 'qr', PACT_BOUNDARY),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: wallet(WALLET, true) }))
      .executeTest(async (mock) => {
        const file = new File([readFileSync(QR_PATH)], 'qr.png', { type: 'image/png' });
        expect((await wallets(mock.url).uploadQr(1, file, 'qr.png')).qr_url).toContain('/qr');
      });
  });

  it('reads the QR image (authenticated)', async () => {
    await pact
      .addInteraction()
      .given(STATES.walletExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the QR image of a wallet')
      .withRequest('GET', '/api/wallets/1/qr', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': regex(/^image\/(png|jpeg)$/, 'image/png') }))
      .executeTest(async (mock) => {
        const blob = await wallets(mock.url).qrBlob('/api/wallets/1/qr');
        expect(blob.type).toMatch(/^image\//);
      });
  });
});
