import { createShiftedClock, systemClock } from './clock';
import { loadConfig } from './config';
import { DEMO_ACCOUNTS } from './db/seed';
import { startApp } from './start';
import { isWebAppBuilt } from './web-app';

/**
 * Starts the Parcela API server (`npm run serve`): configuration from the environment, database
 * open + migrations + demo seed unless SEED=none (server/start.ts), then listen on HOST:PORT serving the API and the
 * built web app. SIGINT/SIGTERM close the server and the database gracefully.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // Under NODE_ENV=test (the e2e servers) the clock can be moved forward: POST /dev/clock.
  const clock = config.nodeEnv === 'test' ? createShiftedClock() : systemClock;
  const { app, database: handle, idAlphabet } = await startApp(config, { logger: { level: 'info' }, clock });
  const log = app.log;
  if (idAlphabet === 'generated') log.info("Generated this installation's ID alphabet (stored in the database)");
  if (idAlphabet === 'default-kept') {
    log.warn(
      'This installation already shared links made with the default ID alphabet, so it keeps it: set ID_ALPHABET on a new installation (docs/security.md item 16)',
    );
  }
  const where = handle.dialect === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : config.databasePath;
  log.info({ applied: handle.applied }, `Database ready: ${where}`);
  if (handle.seeded) log.info('Demo data seeded');
  if (config.pusher.host && !config.pusher.secretConfigured) {
    log.warn("PUSHER_HOST is set but PUSHER_APP_SECRET is not: the external realtime service will refuse this server's events");
  }
  if (!config.mail.enabled) {
    if (config.nodeEnv === 'production') {
      log.warn(
        'MAIL=off: password-reset and new-user e-mails are queued in the outbox but NOT sent, so nobody can set a password by e-mail. Set SMTP_URL, MAIL_FROM and PUBLIC_URL (docs/security.md item 10)',
      );
    } else {
      log.info('E-mail is not sent (no SMTP_URL, or MAIL=off): messages stay in the outbox, readable at /dev/outbox');
    }
  }
  if (!isWebAppBuilt(config)) log.warn(`No built web app at ${config.distDir}: run \`npm run build\` (the API works without it)`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal} received, shutting down`);
    try {
      await app.close();
      await handle.db.destroy();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'Error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  // Test harnesses set EXIT_ON_STDIN_CLOSE so a server they start stops by itself with them.
  if (process.env.EXIT_ON_STDIN_CLOSE === '1') {
    process.stdin.on('end', () => void shutdown('stdin closed'));
    process.stdin.resume();
  }

  await app.listen({ port: config.port, host: config.host });

  if (config.seed === 'demo') {
    const { admin, asesor, customer } = DEMO_ACCOUNTS;
    console.log(
      [
        '',
        `Parcela escuchando en ${config.publicUrl}`,
        'Cuentas de demostración:',
        `  Colaborador (Administrador):    DNI ${admin.dni} o ${admin.email} / ${admin.password}`,
        `  Colaborador (Asesor de ventas): DNI ${asesor.dni} o ${asesor.email} / ${asesor.password}`,
        `  Cliente:                        documento ${customer.documentNumber} / ${customer.password}`,
        '',
      ].join('\n'),
    );
  }
}

main().catch((error: unknown) => {
  console.error('Parcela server failed to start:', error);
  process.exit(1);
});
