import path from 'node:path';
import proxyaddr from 'proxy-addr';

/**
 * Every setting of the portal, read once from the environment and checked before anything starts.
 * A wrong value stops the start with a sentence that names the variable and what it expects.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL when set; the embedded PGlite under dataDir otherwise. */
  databaseUrl: string | null;
  /** Connections each portal process keeps open to PostgreSQL (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** SMTP when set; mail is written to the log and to dataDir/mail otherwise. */
  smtpUrl: string | null;
  mailFrom: string;
  /** The address users reach the portal at, for links in mail and for cookies' Secure flag. */
  publicUrl: string;
  /** Seed the demo sign-ins into an empty database reached through DATABASE_URL. */
  seedDemo: boolean;
  /** Where the built SPA is served from. */
  distDir: string;
  /** How long an access token lives, in minutes. */
  tokenTtlMinutes: number;
  logRequests: boolean;
  /** S3-compatible object storage for uploads when S3_BUCKET is set; local disk under dataDir otherwise. */
  s3: S3Config | null;
  /**
   * Which proxies in front of the portal are believed when they say who the client is (TRUST_PROXY), or
   * null to believe nobody: the socket's address is then the client's.
   */
  trustProxy: TrustProxy | null;
  /** Paystack's keys when both are set; the portal's own sandbox provider otherwise (server/payments/). */
  paystack: PaystackConfig | null;
  /**
   * The sandbox provider's secret key (SANDBOX_SECRET_KEY, 32 characters or more), for a script that
   * drives the sandbox of a portal it started (the payments bench); null: a random one each start.
   */
  sandboxSecretKey: string | null;
  /**
   * Whether the sandbox charges its payers Paystack's fees on top, as a Paystack account that passes its
   * fees on does (SANDBOX_PASS_FEES=1): its verify then answers amount = requested_amount + fees.
   */
  sandboxPassFees: boolean;
}

interface PaystackConfig {
  secretKey: string;
  publicKey: string;
}

/** Whether the hop at this address, this many hops from the portal (0 is the socket), is a proxy we trust. */
type TrustProxy = (address: string, hop: number) => boolean;

export interface S3Config {
  bucket: string;
  /** An S3-compatible server (MinIO, Ceph, R2, ...); null for AWS itself. */
  endpoint: string | null;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`: what most S3-compatible servers need. */
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`The portal cannot start, its settings are wrong:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Connections a process keeps to PostgreSQL by default. One Node process runs one query's JavaScript at
 * a time; a few connections keep the database busy while it does, more only queue in PostgreSQL
 * (docs/performance.md has the figures). Scale by adding processes, within the server's max_connections.
 */
export const DEFAULT_POOL_SIZE = 10;

/** The settings of object storage (README, Settings). */
const S3_SETTINGS = [
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
] as const;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const text = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const integer = (name: string, fallback: number, min: number, max: number) => {
    const raw = text(name);
    if (raw === null) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}; it is '${raw}'.`);
      return fallback;
    }
    return value;
  };
  const url = (name: string, protocols: string[]) => {
    const raw = text(name);
    if (raw === null) return null;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(
          `${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}; it is '${raw}'.`,
        );
      }
    } catch {
      problems.push(`${name} must be a URL such as ${protocols[0]}//host; it is '${raw}'.`);
    }
    return raw;
  };
  const flag = (name: string, fallback = false) => {
    const raw = text(name);
    if (raw === null) return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be 1 or 0; it is '${raw}'.`);
    return fallback;
  };

  /** Object storage: all of it or none of it, so a typo never silently falls back to local disk. */
  const s3 = (): S3Config | null => {
    const bucket = text('S3_BUCKET');
    const others = S3_SETTINGS.filter((name) => name !== 'S3_BUCKET' && text(name) !== null);
    if (bucket === null) {
      if (others.length) {
        problems.push(
          `${others.join(', ')} ${others.length === 1 ? 'is' : 'are'} set but S3_BUCKET is not; set S3_BUCKET to keep uploads in object storage, or unset ${others.length === 1 ? 'it' : 'them'} to keep them on local disk.`,
        );
      }
      return null;
    }
    // Bucket names of S3 (and of the servers that copy it): 3-63 lower-case letters, digits, dots, hyphens.
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
      problems.push(
        `S3_BUCKET must be a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens; it is '${bucket}'.`,
      );
    }
    const accessKeyId = text('S3_ACCESS_KEY_ID');
    const secretAccessKey = text('S3_SECRET_ACCESS_KEY');
    const missing = [
      ...(accessKeyId === null ? ['S3_ACCESS_KEY_ID'] : []),
      ...(secretAccessKey === null ? ['S3_SECRET_ACCESS_KEY'] : []),
    ];
    if (missing.length) {
      problems.push(
        `S3_BUCKET is set, so S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set too; ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing.`,
      );
    }
    const endpoint = url('S3_ENDPOINT', ['http:', 'https:']);
    const region = text('S3_REGION') ?? 'us-east-1';
    if (!/^[a-z0-9-]{2,32}$/.test(region)) {
      problems.push(`S3_REGION must be a region name such as us-east-1; it is '${region}'.`);
    }
    return {
      bucket,
      endpoint: endpoint?.replace(/\/$/, '') ?? null,
      region,
      accessKeyId: accessKeyId ?? '',
      secretAccessKey: secretAccessKey ?? '',
      forcePathStyle: flag('S3_FORCE_PATH_STYLE', endpoint !== null),
    };
  };

  /**
   * TRUST_PROXY: how many proxies stand in front of the portal (a load balancer is 1), or their addresses
   * and networks (`10.0.0.0/8, 127.0.0.1`, or proxy-addr's names loopback, linklocal, uniquelocal).
   * Off by default: a portal reached directly that believed X-Forwarded-For would let anyone choose
   * their own address, and with it their own rate-limit bucket.
   */
  const trustProxy = (): TrustProxy | null => {
    const raw = text('TRUST_PROXY');
    if (raw === null || ['0', 'false', 'no'].includes(raw.toLowerCase())) return null;
    if (/^\d+$/.test(raw)) {
      const hops = Number(raw);
      if (hops > 20) problems.push(`TRUST_PROXY must be a number of proxies from 0 to 20; it is '${raw}'.`);
      return (_address, hop) => hop < hops;
    }
    try {
      return proxyaddr.compile(raw.split(',').map((part) => part.trim()));
    } catch {
      problems.push(
        `TRUST_PROXY must be a number of proxies, or addresses and networks such as 10.0.0.0/8, 127.0.0.1; it is '${raw}'.`,
      );
      return null;
    }
  };

  /** Paystack: both keys or neither (the sandbox), so a half-set pair never takes real money half-way. */
  const paystack = (): PaystackConfig | null => {
    const secretKey = text('PAYSTACK_SECRET_KEY');
    const publicKey = text('PAYSTACK_PUBLIC_KEY');
    if (secretKey === null && publicKey === null) return null;
    if (secretKey === null || publicKey === null) {
      problems.push(
        `${secretKey === null ? 'PAYSTACK_PUBLIC_KEY' : 'PAYSTACK_SECRET_KEY'} is set but ${secretKey === null ? 'PAYSTACK_SECRET_KEY' : 'PAYSTACK_PUBLIC_KEY'} is not; set both to take payments through Paystack, or neither for the sandbox.`,
      );
      return null;
    }
    if (!/^sk_(test|live)_\w+$/.test(secretKey)) {
      problems.push('PAYSTACK_SECRET_KEY must be a Paystack secret key (sk_test_… or sk_live_…).');
    }
    if (!/^pk_(test|live)_\w+$/.test(publicKey)) {
      problems.push(
        `PAYSTACK_PUBLIC_KEY must be a Paystack public key (pk_test_… or pk_live_…); it is '${publicKey}'.`,
      );
    }
    return { secretKey, publicKey };
  };

  const sandboxSecretKey = (): string | null => {
    const key = text('SANDBOX_SECRET_KEY');
    if (key !== null && !/^[\w-]{32,200}$/.test(key)) {
      problems.push('SANDBOX_SECRET_KEY must be 32 to 200 letters, digits, _ or -.');
    }
    return key;
  };

  const port = integer('PORT', 3000, 0, 65535);
  const publicUrl = url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  const mailFrom = text('MAIL_FROM') ?? 'Examinations Board Portal <no-reply@portal.local>';
  if (!/@/.test(mailFrom)) problems.push(`MAIL_FROM must hold an email address; it is '${mailFrom}'.`);

  const config: Config = {
    port,
    host: text('HOST') ?? '0.0.0.0',
    dataDir: path.resolve(text('DATA_DIR') ?? './data'),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: integer('DATABASE_POOL_SIZE', DEFAULT_POOL_SIZE, 1, 500),
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom,
    publicUrl: publicUrl.replace(/\/$/, ''),
    seedDemo: flag('SEED_DEMO'),
    distDir: path.resolve(text('DIST_DIR') ?? './dist'),
    tokenTtlMinutes: integer('TOKEN_TTL_MINUTES', 12 * 60, 5, 60 * 24 * 30),
    logRequests: !flag('QUIET'),
    s3: s3(),
    trustProxy: trustProxy(),
    paystack: paystack(),
    sandboxSecretKey: sandboxSecretKey(),
    sandboxPassFees: flag('SANDBOX_PASS_FEES'),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}
