/**
 * Consumer contract of Administración → Registros de partidas y títulos (titles at SUNARP,
 * docs/domain.md "Titles at SUNARP") between `parcela-web` and `parcela-api`, through the real
 * src/api module. Every interaction starts from an empty database (docs/contracts.md).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createTitlesApi } from '../../../src/api/administracion/titles';
import { TITLE_MESSAGES } from '../../../src/schemas/administracion/titles';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { SALE_DATE, STAFF_TOKEN, STATES } from '../states';

const { like, integer, regex, eachLike, boolean } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createTitlesApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Fixed multipart boundary, so the regenerated pact is byte-identical run after run. */
const PACT_BOUNDARY = 'parcelaPactBoundary';
/** The acta de entrega uploaded (a PDF header is what the server sniffs). */
const ACTA_PATH = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-pact-')), 'acta.pdf');
writeFileSync(ACTA_PATH, Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1'));

/** A title process as the server answers it (sale 1, lot 1), in `state`. */
const process = (state: string, version = 1) => ({
  id: integer(1),
  state: like(state),
  state_since: regex(DATE, SALE_DATE),
  days_in_state: integer(0),
  sale: { id: integer(1), number: like('V-000001'), status: like('CANCELADA'), type: like('CONTADO'), titular: like('Rosa Díaz') },
  lot: { id: integer(1), code: like('MZ A - LT 1'), subdivision_id: integer(1), subdivision_name: like('Lotización') },
  retention_pact_stated: boolean(false),
  next_states: eachLike(like('ESCRITURA')),
  created_at: regex(ISO, '2026-11-20T17:00:00.000Z'),
  updated_at: regex(ISO, '2026-11-20T17:00:00.000Z'),
  version: integer(version),
});

/** One step of a process's history. */
const event = (to: string) => ({
  id: integer(1),
  to_state: like(to),
  date: regex(DATE, SALE_DATE),
  created_at: regex(ISO, '2026-11-20T17:00:00.000Z'),
});

describe('Registros de partidas y títulos', () => {
  it('opens the title process of a sale (201)', async () => {
    await pact
      .addInteraction()
      .given(STATES.saleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to open the title process of a sale')
      .withRequest('POST', '/api/title-processes', (b) => b.headers(json).jsonBody({ sale_id: 1 }))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...process('PENDIENTE'),
            sale: {
              id: integer(1),
              number: like('V-000001'),
              status: like('INICIAL_PENDIENTE'),
              type: like('CONTADO'),
              titular: like('Rosa'),
            },
            next_states: eachLike(like('MINUTA_FIRMADA')),
            events: eachLike(event('PENDIENTE')),
          },
        }),
      )
      .executeTest(async (mock) => {
        const created = await api(mock.url).create({ sale_id: 1 });
        expect(created.state).toBe('PENDIENTE');
        expect(created.sale.id).toBe(1);
        expect(created.events).toHaveLength(1);
      });
  });

  it('lists the processes in a state', async () => {
    await pact
      .addInteraction()
      .given(STATES.titleProcessExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the title processes in PENDIENTE')
      .withRequest('GET', '/api/title-processes', (b) => b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', state: 'PENDIENTE' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: eachLike(process('PENDIENTE')), meta: { page: integer(1), per_page: integer(20), total: integer(1) } }),
      )
      .executeTest(async (mock) => {
        const page = await api(mock.url).list({ page: 1, per_page: 20, filters: { state: 'PENDIENTE' } });
        expect(page.data[0]?.state).toBe('PENDIENTE');
        expect(page.meta.total).toBe(1);
      });
  });

  it('reads the board: processes per state', async () => {
    await pact
      .addInteraction()
      .given(STATES.titleProcessExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the title processes board')
      .withRequest('GET', '/api/title-processes/board', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: { counts: eachLike({ state: like('PENDIENTE'), count: integer(1) }), total: integer(1), notice_due: integer(0) },
        }),
      )
      .executeTest(async (mock) => {
        const board = await api(mock.url).board();
        expect(board.counts[0]).toEqual({ state: 'PENDIENTE', count: 1 });
        expect(board.total).toBe(1);
      });
  });

  it('opens one process with its history', async () => {
    await pact
      .addInteraction()
      .given(STATES.titleProcessExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for title process 1')
      .withRequest('GET', '/api/title-processes/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: { ...process('PENDIENTE'), events: eachLike(event('PENDIENTE')) } }))
      .executeTest(async (mock) => {
        const one = await api(mock.url).get(1);
        expect(one.id).toBe(1);
        expect(one.events[0]?.to_state).toBe('PENDIENTE');
      });
  });

  it('moves a process to MINUTA_FIRMADA', async () => {
    const body = { to: 'MINUTA_FIRMADA' as const, version: 1, date: SALE_DATE };
    await pact
      .addInteraction()
      .given(STATES.titleProcessExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to move title process 1 to MINUTA_FIRMADA')
      .withRequest('POST', '/api/title-processes/1/transition', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...process('MINUTA_FIRMADA', 2),
            minuta_signed_on: regex(DATE, SALE_DATE),
            events: eachLike(event('MINUTA_FIRMADA')),
          },
        }),
      )
      .executeTest(async (mock) => {
        const moved = await api(mock.url).transition(1, body);
        expect(moved.state).toBe('MINUTA_FIRMADA');
        expect(moved.minuta_signed_on).toBe(SALE_DATE);
      });
  });

  it('refuses a move not in the transitions table (409)', async () => {
    const body = { to: 'INSCRITO' as const, version: 1, date: SALE_DATE, partida: '11223344', asiento: 'C00002' };
    await pact
      .addInteraction()
      .given(STATES.titleProcessExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to move a PENDIENTE title process straight to INSCRITO')
      .withRequest('POST', '/api/title-processes/1/transition', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody({ message: like(TITLE_MESSAGES.transitionNotAllowed) }))
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).transition(1, body));
        expect(error.status).toBe(409);
        expect(error.message).toBe(TITLE_MESSAGES.transitionNotAllowed);
      });
  });

  it('lists the public holidays of a year', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request for the public holidays of 2026')
      .withRequest('GET', '/api/public-holidays', (b) => b.headers(bearer(STAFF_TOKEN)).query({ page: '1', per_page: '100', year: '2026' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({ id: integer(1), date: regex(DATE, '2026-01-01'), name: like('Año Nuevo'), version: integer(1) }),
          meta: { page: integer(1), per_page: integer(100), total: integer(16) },
        }),
      )
      .executeTest(async (mock) => {
        const page = await api(mock.url).holidays({ page: 1, per_page: 100, year: 2026 });
        expect(page.data[0]?.date).toBe('2026-01-01');
      });
  });

  it('adds a public holiday (201)', async () => {
    const body = { date: '2026-12-24', name: 'Día no laborable' };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to add a public holiday')
      .withRequest('POST', '/api/public-holidays', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) =>
        b.jsonBody({ data: { id: integer(17), date: regex(DATE, '2026-12-24'), name: like('Día no laborable'), version: integer(1) } }),
      )
      .executeTest(async (mock) => {
        const created = await api(mock.url).createHoliday(body);
        expect(created.date).toBe('2026-12-24');
      });
  });

  it('offers the sales without a title process for "Nuevo trámite"', async () => {
    await pact
      .addInteraction()
      .given(STATES.saleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the sales a new title process may pick')
      .withRequest('GET', '/api/title-processes/sale-options', (b) => b.headers(bearer(STAFF_TOKEN)).query({ q: 'V-000001' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            id: integer(1),
            number: like('V-000001'),
            status: like('INICIAL_PENDIENTE'),
            type: like('CONTADO'),
            lot_code: like('MZ A - LT 1'),
            subdivision_name: like('Lotización'),
            titular: like('Rosa'),
          }),
        }),
      )
      .executeTest(async (mock) => {
        const options = await api(mock.url).saleOptions('V-000001');
        expect(options[0]?.number).toBe('V-000001');
      });
  });

  it('uploads the acta de entrega of an inscribed title (multipart file)', async () => {
    await pact
      .addInteraction()
      .given(STATES.titleProcessInscribed, { token: STAFF_TOKEN })
      .uponReceiving('a request to upload the acta de entrega of a title process')
      .withRequest('POST', '/api/title-processes/1/delivery-record', (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('application/pdf', ACTA_PATH, 'file', PACT_BOUNDARY),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...process('INSCRITO'),
            partida: like('11223344'),
            delivery_record: {
              content_type: like('application/pdf'),
              size: integer(15),
              uploaded_at: regex(ISO, '2026-11-20T17:00:00.000Z'),
            },
            next_states: eachLike(like('ENTREGADO')),
            events: eachLike(event('PENDIENTE')),
          },
        }),
      )
      .executeTest(async (mock) => {
        const file = new File([readFileSync(ACTA_PATH)], 'acta.pdf', { type: 'application/pdf' });
        const stored = await api(mock.url).uploadDeliveryRecord(1, file, 'acta.pdf');
        expect(stored.delivery_record?.content_type).toBe('application/pdf');
      });
  });

  it('refuses a file that is not a PDF or an image (422 on file)', async () => {
    const textPath = path.join(path.dirname(ACTA_PATH), 'acta.txt');
    writeFileSync(textPath, 'no es un PDF');
    await pact
      .addInteraction()
      .given(STATES.titleProcessInscribed, { token: STAFF_TOKEN })
      .uponReceiving('a request to upload a text file as the acta de entrega')
      .withRequest('POST', '/api/title-processes/1/delivery-record', (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('text/plain', textPath, 'file', PACT_BOUNDARY),
      )
      .willRespondWith(422, (b) =>
        b.jsonBody({
          message: like(TITLE_MESSAGES.deliveryRecordType),
          errors: { file: eachLike(like(TITLE_MESSAGES.deliveryRecordType)) },
        }),
      )
      .executeTest(async (mock) => {
        const file = new File([readFileSync(textPath)], 'acta.txt', { type: 'text/plain' });
        const error = await caught(api(mock.url).uploadDeliveryRecord(1, file, 'acta.txt'));
        expect(error.status).toBe(422);
        expect(error.issues.file?.[0]).toBe(TITLE_MESSAGES.deliveryRecordType);
      });
  });

  it('moves an inscribed title with its acta to ENTREGADO without a text reference', async () => {
    const body = { to: 'ENTREGADO' as const, version: 1, date: SALE_DATE };
    await pact
      .addInteraction()
      .given(STATES.titleDeliveryRecordExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to move an inscribed title process with its acta to ENTREGADO')
      .withRequest('POST', '/api/title-processes/1/transition', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...process('ENTREGADO', 2),
            delivered_on: regex(DATE, SALE_DATE),
            delivery_record: {
              content_type: like('application/pdf'),
              size: integer(15),
              uploaded_at: regex(ISO, '2026-11-20T17:00:00.000Z'),
            },
            next_states: [],
            events: eachLike(event('PENDIENTE')),
          },
        }),
      )
      .executeTest(async (mock) => {
        const moved = await api(mock.url).transition(1, body);
        expect(moved.state).toBe('ENTREGADO');
        expect(moved.delivered_on).toBe(SALE_DATE);
      });
  });

  it('downloads the acta de entrega (authenticated)', async () => {
    await pact
      .addInteraction()
      .given(STATES.titleDeliveryRecordExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the acta de entrega of a title process')
      .withRequest('GET', '/api/title-processes/1/delivery-record', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': regex(/^(application\/pdf|image\/(png|jpeg|webp))$/, 'application/pdf') }))
      .executeTest(async (mock) => {
        const blob = await api(mock.url).deliveryRecord(1);
        expect(blob.type).toMatch(/^application\/pdf|^image\//);
      });
  });
});
