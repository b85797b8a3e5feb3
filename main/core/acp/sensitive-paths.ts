/**
 * Files whose contents are secrets (or grant access): touching one needs a person's explicit yes,
 * whatever the approval policy says. Pure string logic so the permission policy can use it on paths
 * that do not exist yet and on either platform's separators.
 */

/** Exact file names (compared case-insensitively: macOS and Windows file systems are). */
const SENSITIVE_NAMES = new Set([
  '.env',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
  '.npmrc',
  '.yarnrc.yml',
  '.netrc',
  '_netrc',
  '.pgpass',
  '.pypirc',
  '.git-credentials',
  'credentials.json',
  'secrets.json',
  '.htpasswd',
]);

/** File name endings for key and keystore material. */
const SENSITIVE_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.kdbx'];

/**
 * `.env.example` and friends are the committed, secret-free templates of `.env` by convention;
 * treating them as secrets would make every scaffolding task ask.
 */
const ENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template', '.env.dist']);

/** Directories where everything is a secret: `<dir>/<anything>`. */
const SENSITIVE_DIRS = new Set(['.ssh', '.gnupg']);

/** Two-component suffixes: `<dir>/<file>`. */
const SENSITIVE_PAIRS = [
  ['.aws', 'credentials'],
  ['.aws', 'config'],
  ['.docker', 'config.json'],
  ['.kube', 'config'],
  ['gh', 'hosts.yml'],
  ['gcloud', 'credentials.db'],
  ['gcloud', 'application_default_credentials.json'],
];

function components(p: string): string[] {
  return p
    .split(/[\\/]+/)
    .filter((c) => c !== '' && c !== '.')
    .map((c) => c.toLowerCase());
}

/** True when the path names a file that holds secrets or credentials (see the lists above). */
export function isSensitivePath(p: string): boolean {
  if (typeof p !== 'string' || p.length === 0) return false;
  const parts = components(p);
  const name = parts[parts.length - 1];
  if (name === undefined) return false;
  if (SENSITIVE_NAMES.has(name)) return true;
  if (name.startsWith('.env.') && !ENV_TEMPLATES.has(name)) return true;
  if (SENSITIVE_EXTENSIONS.some((ext) => name.endsWith(ext) && name.length > ext.length)) return true;
  // Any component: `~/.ssh` itself (listing it) and everything below it.
  if (parts.some((c) => SENSITIVE_DIRS.has(c))) return true;
  const dir = parts[parts.length - 2];
  return SENSITIVE_PAIRS.some(([d, f]) => d === dir && f === name);
}
