/**
 * From a registry manifest's distribution to launch candidates for this machine: npx and uvx run
 * anywhere the runner is installed; a binary needs the entry for this os-arch and a download the
 * user does (the workbench does not fetch executables in this version).
 */
import { basename } from 'node:path';
import type { BinaryTarget, PackageDistribution, RegistryDistribution } from '../registry-schema';
import type { RegistryAgentRecord } from '../settings-schema';
import type { AgentDefinition, InstallInfo, LaunchCandidate, RegistryPlatform } from '../types';
import { REGISTRY_PLATFORMS } from '../types';

/** This machine in the registry's platform names; undefined on an os/arch the registry has no key for. */
export function currentRegistryPlatform(platform: NodeJS.Platform = process.platform, arch: string = process.arch): RegistryPlatform | undefined {
  const os = platform === 'win32' ? 'windows' : platform === 'darwin' || platform === 'linux' ? platform : undefined;
  const cpu = arch === 'arm64' ? 'aarch64' : arch === 'x64' ? 'x86_64' : undefined;
  if (!os || !cpu) return undefined;
  const key = `${os}-${cpu}`;
  return (REGISTRY_PLATFORMS as readonly string[]).includes(key) ? (key as RegistryPlatform) : undefined;
}

export type SelectedDistribution =
  | { kind: 'npx' | 'uvx'; spec: PackageDistribution }
  | { kind: 'binary'; platform: RegistryPlatform; target: BinaryTarget }
  | { kind: 'unsupported'; reason: string };

/**
 * Package runners first: they need no download step, and the registry pins their version.
 * A binary is chosen only for this os-arch.
 */
export function selectDistribution(dist: RegistryDistribution, platform: RegistryPlatform | undefined): SelectedDistribution {
  if (dist.npx) return { kind: 'npx', spec: dist.npx };
  if (dist.uvx) return { kind: 'uvx', spec: dist.uvx };
  const available = Object.keys(dist.binary ?? {});
  const target = platform ? dist.binary?.[platform] : undefined;
  if (platform && target) return { kind: 'binary', platform, target };
  return {
    kind: 'unsupported',
    reason: `no build for ${platform ?? `${process.platform}-${process.arch}`} (binaries exist for: ${available.join(', ') || 'none'})`,
  };
}

/** `@scope/name@1.2.3` → `@scope/name`. */
export function packageName(spec: string): string {
  const at = spec.lastIndexOf('@');
  return at > 0 ? spec.slice(0, at) : spec;
}

export function registryLaunch(selected: SelectedDistribution): { launch: LaunchCandidate[]; env: Record<string, string>; install: InstallInfo } {
  switch (selected.kind) {
    case 'npx':
      return {
        launch: [{ kind: 'npx', package: selected.spec.package, args: selected.spec.args ?? [] }],
        env: selected.spec.env ?? {},
        install: {
          text: `Runs through npx (${selected.spec.package}); nothing to install. To install it permanently: npm install -g ${packageName(selected.spec.package)}.`,
          npmPackage: packageName(selected.spec.package),
        },
      };
    case 'uvx':
      return {
        launch: [{ kind: 'uvx', package: selected.spec.package, args: selected.spec.args ?? [] }],
        env: selected.spec.env ?? {},
        install: { text: `Runs through uvx (${selected.spec.package}); install uv first if \`uvx\` is missing.`, url: 'https://docs.astral.sh/uv/getting-started/installation/' },
      };
    case 'binary': {
      const { target, platform } = selected;
      const args = target.args ?? [];
      const sha = target.sha256 ? `, check that its SHA-256 is ${target.sha256}` : '';
      return {
        // Once the user has put the binary on PATH it is found like any installed agent.
        launch: [
          { kind: 'path', command: basename(target.cmd), args },
          { kind: 'download', platform, archive: target.archive, cmd: target.cmd, args, ...(target.sha256 ? { sha256: target.sha256 } : {}) },
        ],
        env: target.env ?? {},
        install: {
          text: `Needs download: get ${target.archive}${sha}, extract it and put ${basename(target.cmd)} (${target.cmd} in the archive) on your PATH. The workbench does not download binaries itself.`,
          url: target.archive,
        },
      };
    }
    case 'unsupported':
      return { launch: [], env: {}, install: { text: `Not available on this machine: ${selected.reason}.` } };
  }
}

export function registryDefinition(record: RegistryAgentRecord, platform: RegistryPlatform | undefined, builtin?: AgentDefinition): AgentDefinition {
  const { launch, env, install } = registryLaunch(selectDistribution(record.distribution, platform));
  if (builtin) {
    // The registry pins the version; the built-in knows the installed command, the quirks and the env.
    const installed = builtin.launch.filter((c) => c.kind === 'path');
    const rest = launch.filter((c) => !(c.kind === 'path' && installed.some((b) => b.kind === 'path' && b.command === c.command)));
    return {
      ...builtin,
      source: 'registry',
      launch: [...installed, ...rest],
      env: { ...builtin.env, ...env },
      install: { ...install, ...(builtin.install.npmPackage && !install.npmPackage ? { npmPackage: builtin.install.npmPackage } : {}) },
      version: record.version,
      ...(record.website ? { homepage: record.website } : {}),
    };
  }
  return {
    id: record.id,
    aliases: [],
    name: record.name,
    description: record.description,
    source: 'registry',
    launch,
    env,
    envVars: [],
    install,
    quirks: [],
    cwd: 'session',
    version: record.version,
    ...(record.website || record.repository ? { homepage: (record.website ?? record.repository)! } : {}),
    disabled: false,
  };
}
