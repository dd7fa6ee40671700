import { beforeEach, describe, expect, it } from 'vitest';
import { BANK_ACCOUNT_MESSAGES, bankAccountResponseSchema, bankAccountsPageSchema } from '../../src/schemas/finanzas/bank-accounts';
import { CCI_MESSAGES, bankByCode, cciCheckDigits } from '../../src/schemas/finanzas/banks';
import { QR_MAX_BYTES, WALLET_MESSAGES, walletResponseSchema, walletsPageSchema } from '../../src/schemas/finanzas/wallets';
import { MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';
import { createBankAccount, createSession, createStaff, createWallet } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase, multipartBody } from './harness';
import { png } from './images';

/** Finanzas → Bancos and Billetera Digital: /api/bank-accounts, /api/wallets, /api/wallets/{id}/qr (issue 16, first slice). */

/** A valid CCI of `bank` (its entity code, branch 191, `account` padded to 12 digits, right check digits). */
function cciOf(bank: string, account: string): string {
  const first18 = `${bankByCode(bank)!.cciCode}191${account.padStart(12, '0')}`;
  return `${first18}${cciCheckDigits(first18)}`;
}

/** A multipart/form-data body with one file part. */
function multipart(field: string, filename: string, contentType: string, content: Buffer) {
  return multipartBody({ field, filename, contentType, content });
}

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 7)]);

describe.each(dialects)('finanzas accounts (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  // The database is shared by the file's tests: each starts without accounts or wallets.
  beforeEach(async () => {
    await db().deleteFrom('bank_accounts').execute();
    await db().deleteFrom('wallets').execute();
  });

  const staffWith = async (permissions: Permission[]) => createSession(db(), await createStaff(db(), { permissions }));
  const banker = () => staffWith([MODULE.finanzas, SUBMODULE.bancos]);
  const walletKeeper = () => staffWith([MODULE.finanzas, SUBMODULE.billeteras]);

  const send = (method: 'POST' | 'PATCH' | 'GET' | 'DELETE', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const history = (entity: string, id: number) =>
    db().selectFrom('change_history').selectAll().where('entity', '=', entity).where('record_id', '=', String(id)).orderBy('id').execute();

  describe('/api/bank-accounts', () => {
    const body = (overrides: Record<string, unknown> = {}) => ({
      bank: 'BBVA',
      kind: 'CORRIENTE',
      currency: 'USD',
      number: '0011-0186-0100012345',
      cci: cciOf('BBVA', '100012345'),
      holder: 'Parcela Inmobiliaria S.A.C.',
      ...overrides,
    });

    it('creates an account (digits kept, active by default), reads it, and records the CREATE', async () => {
      const token = await banker();
      const res = await send(
        'POST',
        '/api/bank-accounts',
        token,
        body({ cci: cciOf('BBVA', '100012345').replace(/(\d{3})(\d{3})/, '$1-$2-') }),
      );
      expect(res.statusCode).toBe(201);
      const { data } = bankAccountResponseSchema.parse(res.json());
      expect(data).toMatchObject({ bank: 'BBVA', number: '001101860100012345', cci: cciOf('BBVA', '100012345'), active: true, version: 1 });
      const one = await send('GET', `/api/bank-accounts/${data.id}`, token);
      expect(bankAccountResponseSchema.parse(one.json()).data).toEqual(data);
      expect((await history('bank_accounts', data.id)).map((h) => h.action)).toEqual(['CREATE']);
    });

    it('answers a Spanish 422 per field: CCI length, bank code, check digits, bank, phone-less holder', async () => {
      const token = await banker();
      const good = cciOf('BBVA', '100012345');
      const wrongDigits = `${good.slice(0, 18)}${good[18] === '9' ? '0' : String(Number(good[18]) + 1)}${good[19]}`;
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ cci: '123' }, 'cci', CCI_MESSAGES.length],
        [{ cci: cciOf('BCP', '100012345') }, 'cci', CCI_MESSAGES.bankCode(bankByCode('BBVA')!)],
        [{ cci: wrongDigits }, 'cci', CCI_MESSAGES.checkDigits],
        [{ bank: 'BANCO_X' }, 'bank', BANK_ACCOUNT_MESSAGES.bank],
        [{ number: '12' }, 'number', BANK_ACCOUNT_MESSAGES.number],
        [{ holder: ' ' }, 'holder', BANK_ACCOUNT_MESSAGES.holder],
      ];
      for (const [overrides, field, message] of cases) {
        const res = await send('POST', '/api/bank-accounts', token, body(overrides));
        expect(res.statusCode, JSON.stringify(overrides)).toBe(422);
        expect(res.json().errors[field]).toEqual([message]);
      }
      const unknownKey = await send('POST', '/api/bank-accounts', token, { ...body(), extra: 1 });
      expect(unknownKey.statusCode).toBe(422);
      const notJson = await ctx().app.inject({
        method: 'POST',
        url: '/api/bank-accounts',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: '{',
      });
      expect(notJson.statusCode).toBeLessThan(500);
    });

    it('refuses the same bank + number and the same CCI with a 422', async () => {
      const token = await banker();
      await createBankAccount(db(), { bank: 'BBVA', number: '001101860100012345', cci: cciOf('BBVA', '100012345') });
      const sameNumber = await send('POST', '/api/bank-accounts', token, body({ cci: cciOf('BBVA', '999') }));
      expect(sameNumber.statusCode).toBe(422);
      expect(sameNumber.json().errors).toEqual({ number: [BANK_ACCOUNT_MESSAGES.duplicateNumber] });
      const sameCci = await send('POST', '/api/bank-accounts', token, body({ number: '55555555' }));
      expect(sameCci.json().errors).toEqual({ cci: [BANK_ACCOUNT_MESSAGES.duplicateCci] });
      // Another bank may hold the same number.
      expect((await send('POST', '/api/bank-accounts', token, body({ bank: 'BCP', cci: cciOf('BCP', '7') }))).statusCode).toBe(201);
    });

    it('lists with q, filters and sort, and pages', async () => {
      const token = await banker();
      await createBankAccount(db(), { bank: 'BCP', holder: 'Alfa SAC', currency: 'PEN' });
      await createBankAccount(db(), { bank: 'INTERBANK', holder: 'Beta SAC', currency: 'USD', active: false });
      await createBankAccount(db(), { bank: 'BBVA', holder: 'Gamma SAC', currency: 'PEN' });
      const all = bankAccountsPageSchema.parse((await send('GET', '/api/bank-accounts?sort=-holder&per_page=2', token)).json());
      expect(all.meta).toEqual({ page: 1, per_page: 2, total: 3 });
      expect(all.data.map((a) => a.holder)).toEqual(['Gamma SAC', 'Beta SAC']);
      const inactive = bankAccountsPageSchema.parse((await send('GET', '/api/bank-accounts?active=false', token)).json());
      expect(inactive.data.map((a) => a.bank)).toEqual(['INTERBANK']);
      const pen = bankAccountsPageSchema.parse((await send('GET', '/api/bank-accounts?currency=PEN&bank=BBVA', token)).json());
      expect(pen.data.map((a) => a.holder)).toEqual(['Gamma SAC']);
      const q = bankAccountsPageSchema.parse((await send('GET', '/api/bank-accounts?q=alfa', token)).json());
      expect(q.data.map((a) => a.holder)).toEqual(['Alfa SAC']);
      expect((await send('GET', '/api/bank-accounts?sort=cci', token)).statusCode).toBe(422);
      expect((await send('GET', '/api/bank-accounts?bank=X', token)).statusCode).toBe(422);
    });

    it('updates with version (stale → 409), checks the CCI against the stored bank, deactivates and deletes', async () => {
      const token = await banker();
      const id = await createBankAccount(db(), { bank: 'BCP' });
      const renamed = await send('PATCH', `/api/bank-accounts/${id}`, token, { holder: 'Nuevo Titular', version: 1 });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().data).toMatchObject({ holder: 'Nuevo Titular', version: 2 });
      const stale = await send('PATCH', `/api/bank-accounts/${id}`, token, { holder: 'Otro', version: 1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ message: STALE_RECORD_MESSAGE, errors: { version: [STALE_RECORD_MESSAGE] } });
      const otherBank = await send('PATCH', `/api/bank-accounts/${id}`, token, { cci: cciOf('BBVA', '1') });
      expect(otherBank.statusCode).toBe(422);
      expect(otherBank.json().errors).toEqual({ cci: [CCI_MESSAGES.bankCode(bankByCode('BCP')!)] });
      const off = await send('PATCH', `/api/bank-accounts/${id}`, token, { active: false });
      expect(off.json().data).toMatchObject({ active: false, version: 3 });
      expect((await send('PATCH', `/api/bank-accounts/${id}`, token, { version: 3 })).statusCode).toBe(422);
      expect((await send('DELETE', `/api/bank-accounts/${id}`, token)).statusCode).toBe(204);
      expect((await send('GET', `/api/bank-accounts/${id}`, token)).statusCode).toBe(404);
      expect((await history('bank_accounts', id)).map((h) => h.action)).toEqual(['UPDATE', 'UPDATE', 'DELETE']);
      expect((await send('DELETE', `/api/bank-accounts/${id}`, token)).statusCode).toBe(404);
      expect((await send('GET', '/api/bank-accounts/abc', token)).statusCode).toBe(404);
    });

    it('needs Finanzas + Bancos (Billeteras alone is 403)', async () => {
      expect((await send('GET', '/api/bank-accounts', await walletKeeper())).statusCode).toBe(403);
      expect((await ctx().app.inject({ method: 'GET', url: '/api/bank-accounts' })).statusCode).toBe(401);
    });
  });

  describe('/api/wallets', () => {
    it('creates, lists, updates (stale → 409), refuses a repeated kind + phone, deactivates and deletes', async () => {
      const token = await walletKeeper();
      const created = await send('POST', '/api/wallets', token, { kind: 'YAPE', phone: '987 654 321', holder: 'Parcela SAC' });
      expect(created.statusCode).toBe(201);
      const { data } = walletResponseSchema.parse(created.json());
      expect(data).toMatchObject({ kind: 'YAPE', phone: '987654321', active: true, qr_url: null, version: 1 });
      const again = await send('POST', '/api/wallets', token, { kind: 'YAPE', phone: '987654321', holder: 'Otro' });
      expect(again.statusCode).toBe(422);
      expect(again.json().errors).toEqual({ phone: [WALLET_MESSAGES.duplicatePhone] });
      expect((await send('POST', '/api/wallets', token, { kind: 'PLIN', phone: '987654321', holder: 'Parcela SAC' })).statusCode).toBe(201);
      const bad = await send('POST', '/api/wallets', token, { kind: 'TUNKI', phone: '887654321', holder: '' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toMatchObject({
        kind: [WALLET_MESSAGES.kind],
        phone: [WALLET_MESSAGES.phone],
        holder: [WALLET_MESSAGES.holder],
      });

      const plins = walletsPageSchema.parse((await send('GET', '/api/wallets?kind=PLIN&sort=-phone', token)).json());
      expect(plins.data.map((w) => w.kind)).toEqual(['PLIN']);
      const byQ = walletsPageSchema.parse((await send('GET', '/api/wallets?q=6543', token)).json());
      expect(byQ.meta.total).toBe(2);

      const edited = await send('PATCH', `/api/wallets/${data.id}`, token, { holder: 'Parcela Inmobiliaria', version: 1 });
      expect(edited.json().data).toMatchObject({ holder: 'Parcela Inmobiliaria', version: 2 });
      expect((await send('PATCH', `/api/wallets/${data.id}`, token, { holder: 'X', version: 1 })).statusCode).toBe(409);
      const clash = await send('PATCH', `/api/wallets/${plins.data[0]!.id}`, token, { kind: 'YAPE' });
      expect(clash.statusCode).toBe(422);
      expect(clash.json().errors).toEqual({ phone: [WALLET_MESSAGES.duplicatePhone] });
      const off = await send('PATCH', `/api/wallets/${data.id}`, token, { active: false });
      expect(off.json().data.active).toBe(false);
      const inactive = walletsPageSchema.parse((await send('GET', '/api/wallets?active=false', token)).json());
      expect(inactive.data.map((w) => w.id)).toEqual([data.id]);
      expect((await send('DELETE', `/api/wallets/${data.id}`, token)).statusCode).toBe(204);
      expect((await history('wallets', data.id)).map((h) => h.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'DELETE']);
    });

    it('uploads a PNG QR, serves it to staff with the access only, replaces it with a JPEG, never records the bytes', async () => {
      const token = await walletKeeper();
      const id = await createWallet(db(), { kind: 'PLIN' });
      const upload = (content: Buffer, type = 'image/png', field = 'qr') => {
        const body = multipart(field, 'qr.png', type, content);
        return ctx().app.inject({
          method: 'POST',
          url: `/api/wallets/${id}/qr`,
          payload: body.payload,
          headers: { ...body.headers, ...bearer(token) },
        });
      };
      expect((await send('GET', `/api/wallets/${id}/qr`, token)).statusCode).toBe(404);
      const first = await upload(png(300, 300));
      expect(first.statusCode).toBe(200);
      const { data } = walletResponseSchema.parse(first.json());
      expect(data.qr_url).toMatch(new RegExp(`^/api/wallets/${id}/qr\\?v=\\d+$`));
      // The QR is not a form field: an editor open on the wallet keeps a valid version.
      expect(data.version).toBe(1);
      const served = await send('GET', data.qr_url!, token);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.rawPayload.equals(png(300, 300))).toBe(true);
      expect((await send('GET', data.qr_url!, await banker())).statusCode).toBe(403);
      expect((await ctx().app.inject({ method: 'GET', url: data.qr_url! })).statusCode).toBe(401);

      expect((await upload(JPEG, 'image/png')).statusCode).toBe(200);
      const replaced = await send('GET', `/api/wallets/${id}/qr`, token);
      expect(replaced.headers['content-type']).toBe('image/jpeg');
      const rows = await history('wallets', id);
      expect(rows.map((r) => r.action)).toEqual(['UPDATE', 'UPDATE']);
      expect(rows.every((r) => !String(r.after).includes('qr_data'))).toBe(true);

      const notImage = await upload(Buffer.from('%PDF-1.7 not an image'), 'image/png');
      expect(notImage.statusCode).toBe(422);
      expect(notImage.json().errors).toEqual({ qr: [WALLET_MESSAGES.qrNotImage] });
      const tooLarge = await upload(Buffer.concat([png(10, 10), Buffer.alloc(QR_MAX_BYTES)]));
      expect(tooLarge.statusCode).toBe(422);
      expect(tooLarge.json().errors).toEqual({ qr: [WALLET_MESSAGES.qrTooLarge] });
      const wrongField = await upload(png(10, 10), 'image/png', 'file');
      expect(wrongField.json().errors).toEqual({ qr: [WALLET_MESSAGES.qrMissing] });
      const noBody = await ctx().app.inject({ method: 'POST', url: `/api/wallets/${id}/qr`, headers: bearer(token) });
      expect(noBody.statusCode).toBe(422);
      const unknown = await ctx().app.inject({
        method: 'POST',
        url: '/api/wallets/999999/qr',
        ...(() => {
          const b = multipart('qr', 'qr.png', 'image/png', png(10, 10));
          return { payload: b.payload, headers: { ...b.headers, ...bearer(token) } };
        })(),
      });
      expect(unknown.statusCode).toBe(404);
    });
  });
});
