import type { PermissionOption, ToolCallUpdate } from '@agentclientprotocol/sdk/unstable';
import { describe, expect, it } from 'vitest';
import { isSensitivePath } from '../acp/sensitive-paths';
import { runPermissionChain, type ApprovePolicy, type Decider, type PermissionInput } from './permission-chain';
import { chooseOption, rejectOutcome } from './permission-options';
import {
  alwaysKey,
  AlwaysMemory,
  parseApprovePolicy,
  pathsTouchedBy,
  standardPermissionChain,
  titlePattern,
} from './permission-policy';

const opt = (optionId: string, kind: PermissionOption['kind']): PermissionOption => ({ optionId, name: optionId, kind });

/** Option sets as real agents send them (ids are theirs; kinds are the protocol's). */
const AGENTS: Record<string, PermissionOption[]> = {
  claude: [opt('allow_always', 'allow_always'), opt('allow', 'allow_once'), opt('reject', 'reject_once')],
  codex: [opt('approved', 'allow_once'), opt('approved-for-session', 'allow_always'), opt('abort', 'reject_once')],
  gemini: [opt('proceed_always', 'allow_always'), opt('proceed_once', 'allow_once'), opt('cancel', 'reject_once')],
  opencode: [opt('once', 'allow_once'), opt('always', 'allow_always'), opt('reject', 'reject_once')],
  alwaysOnly: [opt('yes-forever', 'allow_always'), opt('never', 'reject_always')],
  noReject: [opt('ok', 'allow_once')],
  noAllow: [opt('nope', 'reject_once')],
  none: [],
};

describe('chooseOption', () => {
  it('chooses by kind, whatever the ids', () => {
    const got = Object.fromEntries(
      Object.entries(AGENTS).map(([agent, options]) => [
        agent,
        [chooseOption(options, 'allow'), chooseOption(options, 'allow', true), chooseOption(options, 'reject'), chooseOption(options, 'reject', true)],
      ]),
    );
    expect(got).toEqual({
      claude: ['allow', 'allow_always', 'reject', 'reject'],
      codex: ['approved', 'approved-for-session', 'abort', 'abort'],
      gemini: ['proceed_once', 'proceed_always', 'cancel', 'cancel'],
      opencode: ['once', 'always', 'reject', 'reject'],
      alwaysOnly: ['yes-forever', 'yes-forever', 'never', 'never'],
      noReject: ['ok', 'ok', null, null],
      noAllow: [null, null, 'nope', 'nope'],
      none: [null, null, null, null],
    });
  });

  it('ignores options of unknown kinds and tolerates a missing list', () => {
    const weird = [{ optionId: 'x', name: 'x', kind: 'maybe' } as unknown as PermissionOption, opt('y', 'allow_once')];
    expect(chooseOption(weird, 'allow')).toBe('y');
    expect(chooseOption(undefined, 'allow')).toBeNull();
  });

  it('answers cancelled when a reject is wanted and none is offered', () => {
    expect(rejectOutcome(AGENTS.noReject!)).toEqual({ outcome: 'cancelled' });
    expect(rejectOutcome(AGENTS.codex!)).toEqual({ outcome: 'selected', optionId: 'abort' });
  });
});

const memory = () => new AlwaysMemory();

function input(over: Partial<PermissionInput> & { toolCall?: ToolCallUpdate }): PermissionInput {
  return {
    sessionId: 's1',
    agentId: 'claude',
    toolCall: { toolCallId: 't1', kind: 'edit', title: 'Edit src/a.ts' },
    options: AGENTS.claude!,
    interactive: false,
    cwd: '/work/project',
    ...over,
  };
}

const KINDS = ['read', 'search', 'fetch', 'think', 'edit', 'delete', 'move', 'execute', 'switch_mode', 'other', undefined] as const;

describe('--approve policies (non-interactive run)', () => {
  async function answer(policy: ApprovePolicy, agent: string, kind: (typeof KINDS)[number]) {
    const d = await runPermissionChain(
      standardPermissionChain({ memory: memory() }),
      input({ policy, options: AGENTS[agent]!, toolCall: { toolCallId: 't', kind, title: 'Do it' } }),
    );
    expect(d.type).toBe('decided');
    return d.type === 'decided' ? (d.outcome.outcome === 'selected' ? d.outcome.optionId : 'cancelled') : 'asked';
  }

  it('all: allows every kind with the "once" option of each agent', async () => {
    for (const kind of KINDS) {
      expect(await answer('all', 'claude', kind)).toBe('allow');
      expect(await answer('all', 'codex', kind)).toBe('approved');
      expect(await answer('all', 'gemini', kind)).toBe('proceed_once');
      expect(await answer('all', 'alwaysOnly', kind)).toBe('yes-forever');
    }
  });

  it('all: with no allow option on offer, rejects (nobody to ask)', async () => {
    expect(await answer('all', 'noAllow', 'read')).toBe('nope');
    expect(await answer('all', 'none', 'read')).toBe('cancelled');
  });

  it('reads: allows read/search/fetch/think only', async () => {
    const got = await Promise.all(KINDS.map((k) => answer('reads', 'gemini', k)));
    expect(Object.fromEntries(KINDS.map((k, i) => [String(k), got[i]]))).toEqual({
      read: 'proceed_once',
      search: 'proceed_once',
      fetch: 'proceed_once',
      think: 'proceed_once',
      edit: 'cancel',
      delete: 'cancel',
      move: 'cancel',
      execute: 'cancel',
      switch_mode: 'cancel',
      other: 'cancel',
      undefined: 'cancel',
    });
    expect(await answer('reads', 'noReject', 'execute')).toBe('cancelled');
  });

  it('none and unattended ask: reject everything', async () => {
    for (const policy of ['none', 'ask'] as const) {
      for (const kind of KINDS) {
        expect(await answer(policy, 'codex', kind)).toBe('abort');
        expect(await answer(policy, 'alwaysOnly', kind)).toBe('never');
        expect(await answer(policy, 'noReject', kind)).toBe('cancelled');
      }
    }
  });

  it('ask in an interactive session: a person answers', async () => {
    const d = await runPermissionChain(standardPermissionChain({ memory: memory() }), input({ policy: 'ask', interactive: true }));
    expect(d).toEqual({ type: 'ask', by: 'default' });
  });

  it('parses --approve values', () => {
    expect(['ask', 'all', 'reads', 'none'].map(parseApprovePolicy)).toEqual(['ask', 'all', 'reads', 'none']);
    expect(() => parseApprovePolicy('yes')).toThrow(/--approve must be one of ask, all, reads, none/);
  });
});

describe('sensitive-path guard', () => {
  const sensitiveCalls: Array<[string, ToolCallUpdate]> = [
    ['a location', { toolCallId: 't', kind: 'edit', locations: [{ path: '/work/project/.env' }] }],
    ['a diff', { toolCallId: 't', kind: 'edit', content: [{ type: 'diff', path: '/work/project/certs/server.pem', newText: 'x' }] }],
    ['rawInput.file_path', { toolCallId: 't', kind: 'read', rawInput: { file_path: '/home/u/.ssh/id_ed25519' } }],
    ['rawInput.filePath (relative)', { toolCallId: 't', kind: 'read', rawInput: { filePath: 'config/.env.production' } }],
    ['rawInput.path', { toolCallId: 't', kind: 'read', rawInput: { path: '/work/project/.npmrc' } }],
    ['a codex patch', { toolCallId: 't', kind: 'edit', rawInput: { changes: { '/work/project/.aws/credentials': {} } } }],
    ['a shell command', { toolCallId: 't', kind: 'execute', rawInput: { command: 'cat .env | head' } }],
  ];

  for (const [what, toolCall] of sensitiveCalls) {
    it(`finds ${what}; rejects it in a run even with --approve all`, async () => {
      const d = await runPermissionChain(standardPermissionChain({ memory: memory() }), input({ policy: 'all', toolCall }));
      expect(d).toMatchObject({ type: 'decided', by: 'sensitive-path', outcome: { outcome: 'selected', optionId: 'reject' } });
    });
  }

  it('needs a person even when the policy and memory would allow', async () => {
    const mem = memory();
    const toolCall: ToolCallUpdate = { toolCallId: 't', kind: 'edit', title: 'Edit .env', locations: [{ path: '/work/project/.env' }] };
    mem.recordAnswer('claude', toolCall, AGENTS.claude!, 'allow_always');
    const d = await runPermissionChain(standardPermissionChain({ memory: mem }), input({ policy: 'all', interactive: true, toolCall }));
    expect(d).toEqual({
      type: 'ask',
      by: 'sensitive-path',
      reason: 'touches sensitive files: /work/project/.env',
      sensitivePaths: ['/work/project/.env'],
    });
  });

  it('lets ordinary files through to the policy', async () => {
    const toolCall: ToolCallUpdate = { toolCallId: 't', kind: 'edit', locations: [{ path: '/work/project/.env.example' }], rawInput: { file_path: 'src/env.ts' } };
    const d = await runPermissionChain(standardPermissionChain({ memory: memory() }), input({ policy: 'all', toolCall }));
    expect(d).toMatchObject({ type: 'decided', by: 'policy:all', outcome: { optionId: 'allow' } });
    expect(pathsTouchedBy(toolCall, '/work/project')).toEqual(['/work/project/.env.example', '/work/project/src/env.ts']);
  });

  it('isSensitivePath knows the usual secrets', () => {
    const yes = ['/p/.env', '/p/.env.local', 'C:\\p\\.ENV', '/h/.ssh/config', '/h/.ssh', '/h/id_rsa', '/p/key.pem', '/p/tls.key', '/h/.netrc', '/h/.git-credentials', '/p/credentials.json', '/h/.aws/credentials', '/h/.npmrc'];
    const no = ['/p/.env.example', '/p/src/env.ts', '/p/id_rsa.pub', '/p/README.md', '/p/keys/', '/p/.pem', '/p/aws/credentials', ''];
    expect(yes.filter((p) => !isSensitivePath(p))).toEqual([]);
    expect(no.filter((p) => isSensitivePath(p))).toEqual([]);
  });
});

describe('remembered "always" answers', () => {
  it('apply to the same agent and kind of call, not to others', async () => {
    const mem = memory();
    const edit = (title: string): ToolCallUpdate => ({ toolCallId: 'x', kind: 'edit', title });
    expect(mem.recordAnswer('claude', edit('Edit src/a.ts'), AGENTS.claude!, 'allow_always')).toBe(true);
    expect(mem.recordAnswer('claude', edit('Edit src/a.ts'), AGENTS.claude!, 'allow')).toBe(false);
    const chain = standardPermissionChain({ memory: mem });
    const decide = (agentId: string, toolCall: ToolCallUpdate, options = AGENTS.claude!) =>
      runPermissionChain(chain, input({ agentId, toolCall, options, interactive: true }));

    expect(await decide('claude', edit('Edit lib/b.ts'))).toMatchObject({ by: 'remembered', outcome: { optionId: 'allow_always' } });
    expect(await decide('codex', edit('Edit lib/b.ts'))).toEqual({ type: 'ask', by: 'default' });
    expect(await decide('claude', { toolCallId: 'x', kind: 'delete', title: 'Edit lib/b.ts' })).toEqual({ type: 'ask', by: 'default' });
  });

  it('remember rejects, and execute calls by exact command', async () => {
    const mem = memory();
    const run = (command: string): ToolCallUpdate => ({ toolCallId: 'x', kind: 'execute', title: `\`${command}\``, rawInput: { command } });
    mem.recordAnswer('codex', run('git push'), AGENTS.alwaysOnly!, 'never');
    const chain = standardPermissionChain({ memory: mem });
    const decide = (toolCall: ToolCallUpdate) => runPermissionChain(chain, input({ agentId: 'codex', toolCall, options: AGENTS.codex!, interactive: true }));
    expect(await decide(run('git   push'))).toMatchObject({ by: 'remembered', outcome: { optionId: 'abort' } });
    expect(await decide(run('git push --force'))).toEqual({ type: 'ask', by: 'default' });
  });

  it('the policy comes before memory', async () => {
    const mem = memory();
    const toolCall: ToolCallUpdate = { toolCallId: 'x', kind: 'edit', title: 'Edit a.ts' };
    mem.recordAnswer('claude', toolCall, AGENTS.claude!, 'allow_always');
    const d = await runPermissionChain(standardPermissionChain({ memory: mem }), input({ toolCall, policy: 'none' }));
    expect(d).toMatchObject({ by: 'policy:none', outcome: { optionId: 'reject' } });
  });

  it('keys on name, else on the title pattern; nothing without a subject', () => {
    expect(titlePattern('Edit `src/a.ts`')).toBe('Edit *');
    expect(titlePattern('Read lines 10-20 of README.md')).toBe('Read lines 10-20 of *');
    expect(alwaysKey('a', { toolCallId: 'x', kind: 'edit', name: 'Write', title: 'Write /x' })).toBe('["a","edit","Write"]');
    expect(alwaysKey('a', { toolCallId: 'x' })).toBeNull();
    expect(new AlwaysMemory(memoryWith().entries()).lookup('a', { toolCallId: 'y', kind: 'read', title: 'Read b.md' })).toBe('allow');
  });

  function memoryWith(): AlwaysMemory {
    const m = new AlwaysMemory();
    m.recordAnswer('a', { toolCallId: 'x', kind: 'read', title: 'Read a.md' }, AGENTS.opencode!, 'always');
    return m;
  }
});

describe('the QA slot', () => {
  it('comes first and can override even the sensitive-path guard', async () => {
    const deny: Decider = { name: 'fault', decide: () => ({ type: 'decided', outcome: { outcome: 'cancelled' }, by: 'qa:fault' }) };
    let rules: Decider[] = [deny];
    const chain = standardPermissionChain({ memory: memory(), qaRules: () => rules });
    const toolCall: ToolCallUpdate = { toolCallId: 't', kind: 'read', locations: [{ path: '/p/.env' }] };
    expect(await runPermissionChain(chain, input({ toolCall, policy: 'all' }))).toMatchObject({ by: 'qa:fault', outcome: { outcome: 'cancelled' } });
    rules = [];
    expect(await runPermissionChain(chain, input({ toolCall, policy: 'all' }))).toMatchObject({ by: 'sensitive-path' });
  });
});
