/**
 * The portal's process: settings, database, migrations, demo seed on an empty embedded database, API
 * and SPA on one port, and a clean close on SIGTERM/SIGINT. `npm start` runs it through
 * scripts/start.mjs, which first rebuilds whatever is stale.
 */
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/lock';
import { S3StorageError } from './storage/s3';
import { DEMO_MARKERS } from './db/demo/scores';
import { DEMO_PASSWORD, DEMO_SIGN_INS } from './db/seed';
import { SANDBOX_NOTICE } from '../contract/payments';
import { startPortal } from './portal';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let portal;
  try {
    portal = await startPortal(config);
  } catch (error) {
    // Problems the operator can fix get their sentence, not a stack trace.
    if (error instanceof DataDirLockedError || error instanceof S3StorageError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
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
    // The living demo's markers (server/db/demo/scores.ts): board admins who mark.
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
