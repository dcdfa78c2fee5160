/**
 * The portal's process: settings, database, migrations, demo seed on an empty embedded database, API
 * and SPA on one port, and a clean close on SIGTERM/SIGINT. `npm start` runs it through
 * scripts/start.mjs, which first rebuilds whatever is stale.
 */
import { loadConfig, type Config } from './config';
import { describeStartError, wantsDebug } from './startErrors';
import { DEMO_MARKERS } from './demo/scores';
import { DEMO_PASSWORD, DEMO_SIGN_INS } from './demo';
import { SANDBOX_NOTICE } from '../contract/payments';
import { startPortal } from './portal';
import { warmPdfWorker } from './documents/pdfThread';

/**
 * A start that fails: a problem the operator can fix gets its sentence (server/startErrors.ts), and its
 * stack trace only with DEBUG=1; anything else is the portal's own fault, and its stack is printed.
 */
function failedToStart(error: unknown, config: Config | null): never {
  const sentence = describeStartError(error, config);
  if (sentence === null) console.error(error);
  else {
    console.error(sentence);
    if (wantsDebug()) console.error(error);
  }
  process.exit(1);
}

async function main() {
  let config: Config | null = null;
  let portal;
  try {
    config = loadConfig();
    portal = await startPortal(config);
  } catch (error) {
    failedToStart(error, config);
  }
  // The job queue starts once the portal listens (server/portal.ts); a queue that cannot start stops the
  // process as a database that fails before listening does, with the same sentence.
  portal.started.catch(async (error: unknown) => {
    await portal.close().catch(() => {});
    failedToStart(error, config);
  });
  // In a thread of its own while the portal already answers; the first print is then as fast as the next.
  warmPdfWorker(portal.storage).catch(() => {});
  const lines = [
    '',
    `  The examination portal is running at ${portal.url}`,
    `  Database: ${portal.database.driver === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`}`,
    `  Mail: ${portal.mailer.describe()}`,
    portal.payments.info.name === 'sandbox'
      ? `  Payments: the sandbox provider (no Paystack keys set). ${SANDBOX_NOTICE}`
      : '  Payments: Paystack',
  ];
  if (portal.database.driver === 'pglite' || config.seedDemo) {
    lines.push(`  Demo sign-ins (password: ${DEMO_PASSWORD}):`);
    for (const demo of DEMO_SIGN_INS) lines.push(`    ${demo.email.padEnd(22)} ${demo.label}`);
    // The living demo's markers (server/demo/scores.ts): board admins who mark.
    DEMO_MARKERS.forEach((marker, i) =>
      lines.push(
        `    ${marker.email.padEnd(22)} board admin, ${['score marker one', 'score marker two', 'third marker'][i]}`,
      ),
    );
    lines.push('  The 6-digit sign-in code arrives in the mail folder above and in this log.');
  }
  console.log(lines.join('\n') + '\n');

  const stop = async (signal: string) => {
    console.log(`Received ${signal}: closing the portal cleanly...`);
    await portal.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
