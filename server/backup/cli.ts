/**
 * `npm run backup -- FILE` and `npm run restore -- FILE` (README, Backup and restore). Each prints one
 * sentence: what it did, or what went wrong and what to do; the stack only with DEBUG=1.
 */
import { ConfigError, loadConfig } from '../config';
import { wantsDebug } from '../startErrors';
import { backup, BackupError, restore } from './backup';

const [command, file, ...extra] = process.argv.slice(2);

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<string> {
  if ((command !== 'backup' && command !== 'restore') || !file || extra.length) {
    throw new BackupError(
      `Name one archive file: npm run ${command === 'restore' ? 'restore' : 'backup'} -- FILE.`,
    );
  }
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new BackupError(
      command === 'backup'
        ? 'DATABASE_URL is set, so the database is PostgreSQL: back it up with pg_dump (README, Backup and restore).'
        : 'DATABASE_URL is set, so the database is PostgreSQL: restore it with pg_restore (README, Backup and restore).',
    );
  }
  const bucket = config.s3
    ? ` Uploads are in the bucket ${config.s3.bucket}, not in the archive: keep them with its versioning (README).`
    : '';
  if (command === 'backup') {
    const done = await backup(config.dataDir, file);
    return `Backed up the database and ${done.uploads} uploaded files of ${config.dataDir} ${done.live ? 'from the running portal' : '(no portal was running)'} into ${done.file} (${megabytes(done.bytes)}).${bucket}`;
  }
  const done = await restore(config.dataDir, file);
  return `Restored the database of ${done.createdAt} (${done.migrations} migrations) and ${done.uploads} uploaded files into ${config.dataDir}: start the portal with this DATA_DIR.${bucket}`;
}

main().then(
  (sentence) => {
    console.log(sentence);
  },
  (error: unknown) => {
    const known = error instanceof BackupError || error instanceof ConfigError;
    console.error(
      known
        ? (error as Error).message
        : `The ${command ?? 'backup'} failed: ${(error as Error)?.message ?? error}`,
    );
    if (wantsDebug()) console.error(error);
    process.exitCode = 1;
  },
);
