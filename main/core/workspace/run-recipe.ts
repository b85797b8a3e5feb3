/**
 * "Run again": the `runs/create` params a recorded run was made from, as near as its record allows,
 * and what it cannot give back. Secrets were never recorded (arguments and variables that look like
 * secrets are kept as `<redacted>` or by name), an ad-hoc agent's environment has no place in the
 * New compare run form, and follow-up prompts are not part of a new run.
 */
import type { CreateRunParams, RunAgentParams, RunPolicy, RunRecipeView } from '../../../common/api/compare-types';
import { REDACTED } from '../../../common/trace/launch-spec';
import type { ContentBlock } from '../../../common/transcript/acp-types';
import type { RunAgentRecord, RunRecord } from './run-types';

/** `label#2` → `label`: the new run numbers repeated labels again. */
const baseLabel = (label: string) => label.replace(/#\d+$/, '');

function agentChoice(agent: RunAgentRecord, catalog: ReadonlySet<string>, notes: string[]): RunAgentParams['agent'] {
  const name = `Agent ${agent.index + 1} (${agent.label})`;
  if (catalog.has(agent.agentId) || !agent.launch) {
    if (!catalog.has(agent.agentId)) notes.push(`${name}: "${agent.agentId}" is no longer in the agent catalog; pick another agent or add it again.`);
    return { agentId: agent.agentId };
  }
  const { command, args, env } = agent.launch;
  if (args.some((a) => a === REDACTED || a.endsWith(`=${REDACTED}`))) notes.push(`${name}: a secret argument was not recorded (${REDACTED}); type it again in its command line.`);
  if (env.length) notes.push(`${name}: its environment variables (${env.map((v) => v.name).join(', ')}) are not part of a command line; set them in a custom agent of the catalog instead.`);
  return { command, args };
}

export function runRecipe(run: RunRecord, catalog: ReadonlySet<string>): RunRecipeView {
  const notes: string[] = [];
  const agents: RunAgentParams[] = run.agents.map((a) => ({
    agent: agentChoice(a, catalog, notes),
    label: baseLabel(a.label),
    ...(a.mode !== undefined ? { mode: a.mode } : {}),
    ...(a.model !== undefined ? { model: a.model } : {}),
    ...(a.config?.length ? { config: a.config.map(([id, value]) => [id, value] as [string, string]) } : {}),
  }));
  const followUps = run.prompts.length - 1;
  if (followUps > 0) notes.push(`The run's ${followUps === 1 ? 'follow-up prompt is' : `${followUps} follow-up prompts are`} not part of a new run: send ${followUps === 1 ? 'it' : 'them'} once its agents are done.`);
  const params: CreateRunParams = {
    cwd: run.source.cwd,
    agents,
    prompt: (run.prompts[0]?.prompt ?? []) as ContentBlock[],
    policy: run.policy as RunPolicy,
    ...(run.setupCommand ? { setupCommand: run.setupCommand } : {}),
    ...(run.verifyCommand ? { verifyCommand: run.verifyCommand } : {}),
  };
  return { params, notes };
}
