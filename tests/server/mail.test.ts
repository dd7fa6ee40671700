import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { createManualClock, type ManualClock } from '../../server/clock';
import { RESET_MESSAGES } from '../../server/auth/password-reset.service';
import { createSmtpMailer, type Mailer } from '../../server/platform/mailer';
import { LINK_PLACEHOLDER, OUTBOX_DELIVERY, OutboxDelivery, retryDelayMs } from '../../server/platform/outbox-delivery';
import { insertOutboxMessage } from '../../server/platform/outbox.repository';
import { createStaff } from '../../server/testing/fixtures';
import { Migrator } from 'kysely';
import { migrateToLatest } from '../../server/db/migrate';
import { allMigrations } from '../../server/modules';
import { buildTestApp, createTestDatabase, dialects, useTestDatabase } from './harness';

/**
 * Outgoing e-mail over SMTP (issue 11 item 10; server/platform/outbox-delivery.ts): every test
 * sends through a real SMTP server started here on 127.0.0.1 (the `smtp-server` package) and
 * reads the message back as it arrived; the outbox is the durable queue (retries with back-off,
 * SENT / FAILED, the secret link dropped once sent), and two deliveries never send one message twice.
 */

/** What the test SMTP server does with the next messages. */
type Mode = 'accept' | 'tempfail' | 'reject';

interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent (headers and body, transfer-encoded). */
  raw: string;
}

const SMTP_USER = 'parcela';
const SMTP_PASSWORD = 's3creto-de-prueba';

/** A real SMTP server on 127.0.0.1 (random port) that requires SMTP_USER / SMTP_PASSWORD. */
async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  let mode: Mode = 'accept';
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Credenciales inválidas'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (mode !== 'accept') {
          const error = Object.assign(new Error(mode === 'tempfail' ? 'Buzón ocupado, intente luego' : 'Buzón inexistente'), {
            responseCode: mode === 'tempfail' ? 451 : 550,
          });
          callback(error);
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`,
    received,
    setMode: (next: Mode) => {
      mode = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text body of a received message, quoted-printable decoded (how nodemailer sends Spanish text). */
function textOf(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A port nothing listens on (a server that is down). */
async function deadPort(): Promise<number> {
  const probe = await startSmtpServer();
  const port = Number(new URL(probe.url).port);
  await probe.close();
  return port;
}

const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.each(dialects)('e-mail delivery over SMTP (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const mailers: Mailer[] = [];
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
    smtp.setMode('accept');
  });
  afterEach(() => {
    for (const mailer of mailers.splice(0)) mailer.close();
  });

  /** A delivery over the test SMTP server (or `url`), on the test database, with a manual clock. */
  function delivery(clock: ManualClock, url = smtp.url) {
    const mailer = createSmtpMailer(url, 'Parcela <no-reply@parcela.test>');
    mailers.push(mailer);
    return new OutboxDelivery({ db: db(), clock, mailer, log: silentLog });
  }

  async function outboxRow(id: number) {
    return db().selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async function queue(clock: ManualClock, recipient = 'ana@parcela.test') {
    const link = `https://parcela.example/auth/reset_password/${'t'.repeat(43)}/collaborator`;
    return insertOutboxMessage(
      db(),
      { recipient, subject: 'Prueba', body: `Hola Ana:\n${link}\nSaludos`, link },
      clock.now().toISOString(),
    );
  }

  it('a reset request is e-mailed through SMTP (with its credential); the stored message then holds no link', async () => {
    const { app }: { app: FastifyInstance } = await buildTestApp(db(), {
      publicUrl: 'https://parcela.example',
      mail: { smtpUrl: smtp.url, from: 'Parcela <no-reply@parcela.test>', enabled: true },
    });
    try {
      const staff = await createStaff(db());
      const res = await app.inject({ method: 'POST', url: '/api/request_password_reset_collaborator', payload: { dni: staff.dni } });
      expect(res.json()).toEqual({ message: RESET_MESSAGES.requested });
      await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 10_000 });
      const [mail] = smtp.received;
      expect(mail!.from).toBe('no-reply@parcela.test');
      expect(mail!.to).toEqual([staff.email]);
      const text = textOf(mail!.raw);
      const link = /https:\/\/parcela\.example\/auth\/reset_password\/[^/\s]+\/collaborator/.exec(text)?.[0];
      expect(link).toBeDefined();
      expect(text).toMatch(/^Hola \S+:/); // the body of server/auth/password-reset.service.ts, decoded intact
      // The outbox keeps the message as SENT, without the link (its token opens the account).
      type Outbox = { data: { status: string; link: string | null; body: string; attempts: number }[] };
      await vi.waitFor(async () => {
        const rows = (await app.inject({ method: 'GET', url: '/dev/outbox' })).json() as Outbox;
        expect(rows.data[0]).toMatchObject({ status: 'SENT', link: null, attempts: 1 });
        expect(rows.data[0]!.body).not.toContain(link!);
        expect(rows.data[0]!.body).toContain(LINK_PLACEHOLDER.sent);
      });
    } finally {
      await app.close();
    }
  });

  it('a mail server outage loses nothing: the message waits, PENDING, and goes out on a later attempt', async () => {
    const clock = createManualClock();
    const id = await queue(clock);
    const down = delivery(clock, `smtp://127.0.0.1:${await deadPort()}`);
    expect(await down.deliverDue()).toMatchObject({ sent: 0, retrying: 1 });
    const waiting = await outboxRow(id);
    expect(waiting).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(waiting.link).not.toBeNull();
    expect(waiting.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(waiting.last_error).not.toContain(SMTP_PASSWORD);
    // Not due again before its delay…
    const up = delivery(clock);
    expect(await up.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0, skipped: 0 });
    // …then sent once the server answers.
    clock.advance(retryDelayMs(1));
    expect(await up.deliverDue()).toMatchObject({ sent: 1 });
    expect(smtp.received).toHaveLength(1);
    expect(await outboxRow(id)).toMatchObject({ status: 'SENT', attempts: 2, link: null, last_error: null });
  });

  it('a temporary refusal (451) is retried with a growing delay; a permanent one (550) fails at once and drops the link', async () => {
    const clock = createManualClock();
    const id = await queue(clock);
    const sender = delivery(clock);
    smtp.setMode('tempfail');
    expect(await sender.deliverDue()).toMatchObject({ retrying: 1 });
    const first = await outboxRow(id);
    expect(first.last_error).toContain('Buzón ocupado');
    expect(new Date(first.next_attempt_at!).getTime() - clock.now().getTime()).toBe(retryDelayMs(1));
    clock.advance(retryDelayMs(1));
    expect(await sender.deliverDue()).toMatchObject({ retrying: 1 });
    expect(new Date((await outboxRow(id)).next_attempt_at!).getTime() - clock.now().getTime()).toBe(retryDelayMs(2));
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));
    smtp.setMode('reject');
    clock.advance(retryDelayMs(2));
    expect(await sender.deliverDue()).toMatchObject({ failed: 1 });
    const failed = await outboxRow(id);
    expect(failed).toMatchObject({ status: 'FAILED', attempts: 3, link: null });
    expect(failed.body).toContain(LINK_PLACEHOLDER.unsent);
    expect(failed.body).not.toContain('t'.repeat(43));
    expect(smtp.received).toHaveLength(0);
  });

  it(`gives up after ${OUTBOX_DELIVERY.maxAttempts} attempts`, async () => {
    const clock = createManualClock();
    const id = await queue(clock);
    const down = delivery(clock, `smtp://127.0.0.1:${await deadPort()}`);
    for (let attempt = 1; attempt < OUTBOX_DELIVERY.maxAttempts; attempt++) {
      expect(await down.deliverDue()).toMatchObject({ retrying: 1 });
      clock.advance(retryDelayMs(attempt));
    }
    expect(await down.deliverDue()).toMatchObject({ failed: 1 });
    expect(await outboxRow(id)).toMatchObject({ status: 'FAILED', attempts: OUTBOX_DELIVERY.maxAttempts, link: null });
    expect(retryDelayMs(OUTBOX_DELIVERY.maxAttempts)).toBe(OUTBOX_DELIVERY.maxRetryMs);
  });

  it('two deliveries on one database (two server processes) never send one message twice', async () => {
    const clock = createManualClock();
    const ids = [await queue(clock, 'a@parcela.test'), await queue(clock, 'b@parcela.test'), await queue(clock, 'c@parcela.test')];
    const [one, two] = await Promise.all([delivery(clock).deliverDue(), delivery(clock).deliverDue()]);
    expect(one.sent + two.sent).toBe(3);
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(['a@parcela.test', 'b@parcela.test', 'c@parcela.test']);
    for (const id of ids) expect((await outboxRow(id)).status).toBe('SENT');
  });

  it('with e-mail off nothing is sent: the message stays PENDING with its link (readable at /dev/outbox)', async () => {
    const clock = createManualClock();
    const id = await queue(clock);
    const off = new OutboxDelivery({ db: db(), clock, mailer: null, log: silentLog });
    expect(off.enabled).toBe(false);
    off.start();
    off.kick();
    expect(await off.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0, skipped: 0 });
    await off.stop();
    expect(await outboxRow(id)).toMatchObject({ status: 'PENDING', attempts: 0 });
    expect((await outboxRow(id)).link).not.toBeNull();
    expect(smtp.received).toHaveLength(0);
  });

  it('migration 0009 gives up what was queued before it (never sent, links long expired) and can be undone', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => allMigrations(dialect) } });
      const down = await migrator.migrateTo('0008-installation-settings');
      expect(down.error).toBeUndefined();
      await database.db
        .insertInto('outbox')
        .values({
          recipient: 'old@parcela.test',
          subject: 'Antiguo',
          body: 'enlace https://x/y',
          link: 'https://x/y',
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      // 0009 and every later migration run again, in order.
      expect(await migrateToLatest(database)).toEqual(Object.keys(allMigrations(dialect)).filter((name) => name >= '0009'));
      const old = await database.db.selectFrom('outbox').selectAll().where('recipient', '=', 'old@parcela.test').executeTakeFirstOrThrow();
      expect(old).toMatchObject({ status: 'FAILED', link: null, attempts: 0 });
      expect(old.last_error).toContain('antes de que existiera');
    } finally {
      await database.destroy();
    }
  });
});
