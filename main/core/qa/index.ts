/**
 * QA tools (issue #9): the conformance engine and its rules (docs/conformance.md), the `check`
 * script, and `replay` of a recorded agent. What the UI and the CLI import.
 */
export { ConformanceEngine, conformanceReport, reportOf, type ConformanceReport, type EngineOptions, type NumberedRecord } from './engine';
export { conformanceReportFromFile } from './report-file';
export { RULES } from './rules';
export type { Finding, Rule, RuleInfo, Severity } from './types';
export { DEFAULT_CANCEL_TIMEOUT_MS } from './context';
export { runCheck, type CheckOptions, type CheckResult, type CheckStep } from './check/run-check';
export { loadReplay, runReplay, ReplaySelectionError, type LoadedReplay } from './replay/run-replay';
export { ReplayAgent, REPLAY_DIVERGED, type ReplayDelay, type ReplayIo } from './replay/replay-agent';
