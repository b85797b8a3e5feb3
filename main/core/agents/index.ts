/** Agent management: catalog, settings, launch, registry import, detection, doctor, secrets, MCP selection. */
export * from './types';
export { BUILTIN_AGENTS, DEMO_AGENT_ID, reservedAgentIds } from './catalog/builtins';
export { demoAgent, demoAgentPaths, defaultDistDir } from './catalog/demo';
export { buildCatalog, findAgent, getAgent, clientCapabilitiesFor, UnknownAgentError, type CatalogOptions } from './catalog/catalog';
export { currentRegistryPlatform, selectDistribution, type SelectedDistribution } from './catalog/registry-entry';
export * from './settings';
export * from './launch';
export * from './registry';
export type { AgentManifest, RegistryDistribution, PackageDistribution, BinaryTarget } from './registry-schema';
export * from './login-env';
export * from './detect';
export * from './doctor';
export * from './secrets';
export * from './mcp';
export { findExecutable } from './which';
export type { Problem } from './validate';
