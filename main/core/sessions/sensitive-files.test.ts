/**
 * Issue #12: an agent's `fs/read_text_file` / `fs/write_text_file` of a sensitive file inside the
 * session's folder (`.env`) waits for a person's explicit yes, whatever the approval policy, and is
 * refused where nobody can answer. Against the fixture agent (a real subprocess over stdio,
 * scenario `sensitive-files`): what the agent received, the file on disk, the trace and the
 * transcript rebuilt from it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';
import { rebuildSessionTranscript } from '../../../common/transcript/rebuild';
import { entryList, type ToolCallEntry } from '../../../common/transcript/model';
import type { TraceRecord } from '../../../common/trace/records';
import { FixtureWorld, waitFor, type Json, type SessionOptions } from '../acp/test-support/fixture-world';
import type { AgentSession } from './agent-session';
import type { ApprovePolicy } from './permission-chain';

const worlds: FixtureWorld[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.dispose()));
});

const SECRET = 'API_KEY=s3cr3t-value\n';
const text = (t: string): ContentBlock => ({ type: 'text', text: t });

async function start(options: SessionOptions): Promise<{ world: FixtureWorld; session: AgentSession }> {
  const world = new FixtureWorld();
  worlds.push(world);
  writeFileSync(join(world.cwd, '.env'), SECRET);
  writeFileSync(join(world.cwd, 'notes.txt'), 'plain notes');
  const session = await world.session({ scenario: 'sensitive-files', ...options });
  return { world, session };
}

function said(session: AgentSession): string {
  return entryList(session.transcript)
    .flatMap((e) => (e.kind === 'agent_message' ? e.content : []))
    .map((c) => (c.type === 'text' ? c.text : ''))
    .join('');
}

/** Our answers (as the agent received them) to its fs requests of this method, in order. */
async function answers(world: FixtureWorld, session: AgentSession, method: string): Promise<Json[]> {
  return world.answerTo(session.connection, method);
}

const ofKind = <K extends TraceRecord['kind']>(records: TraceRecord[], kind: K) => records.filter((r): r is Extract<TraceRecord, { kind: K }> => r.kind === kind);

async function expectRebuildsTheSame(world: FixtureWorld, session: AgentSession): Promise<TraceRecord[]> {
  await session.connection.close();
  const records = await world.traceRecords(session.connection);
  expect(rebuildSessionTranscript(records, session.id)).toEqual(session.transcript);
  return records;
}

describe('a read of .env inside the root', () => {
  it('waits for a person, and is served after "allow" (even under policy "all"); notes.txt is served without asking', async () => {
    const { world, session } = await start({ interactive: true, policy: 'all' });
    const turn = session.prompt([text('read them')]);
    await waitFor(() => world.queue.pending().length === 1, 'the sensitive read to be queued');
    const [pending] = world.queue.pending();
    // notes.txt was answered before anyone was asked; .env not yet.
    expect((await answers(world, session, 'fs/read_text_file')).map((m) => m.result)).toEqual([{ content: 'plain notes' }]);
    expect(pending!.params.toolCall).toMatchObject({ title: `Read ${join(world.cwd, '.env')}`, kind: 'read' });
    expect(pending!.params.options.map((o) => o.kind)).toEqual(['allow_once', 'reject_once']);
    expect(pending!.context).toMatchObject({ askedBecause: 'sensitive-file', sensitivePaths: [join(world.cwd, '.env')] });
    expect(String(pending!.context?.reason)).toContain('a file that usually holds secrets');
    expect(session.status.status).toBe('waiting');
    // The card is in the live transcript, pending, saying why.
    const card = entryList(session.transcript).find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.permissions.length > 0)!;
    expect(card.permissions[0]).toMatchObject({ status: 'pending' });
    expect(JSON.stringify(card.permissions[0]!.context)).toContain(`The agent wants to read ${join(world.cwd, '.env')}, a file that usually holds secrets`);

    expect(world.queue.resolve(pending!.key, { outcome: 'selected', optionId: 'allow-once' }, 'user')).toEqual({ status: 'resolved' });
    expect((await turn).stopReason).toBe('end_turn');
    expect(said(session)).toBe(`notes:plain notes;env:${SECRET};`);

    const records = await expectRebuildsTheSame(world, session);
    const asked = ofKind(records, 'permission-asked');
    const decided = ofKind(records, 'permission-decided');
    expect(asked).toHaveLength(1);
    expect(decided).toEqual([expect.objectContaining({ requestId: asked[0]!.requestId, outcome: 'selected', optionId: 'allow-once', by: 'user' })]);
    // The request on the wire carries the same id as the decision.
    const wire = records.find((r) => r.kind === 'wire' && r.dir === 'in' && r.msg.method === 'fs/read_text_file' && (r.msg.params as Json).path === join(world.cwd, '.env'));
    expect(wire && wire.kind === 'wire' ? wire.msg.id : undefined).toEqual(asked[0]!.requestId);
  });

  it('is refused after "reject", with an error naming the path and the reason', async () => {
    const { world, session } = await start({ interactive: true, policy: 'all' });
    const turn = session.prompt([text('read them')]);
    await waitFor(() => world.queue.pending().length === 1, 'the sensitive read to be queued');
    world.queue.resolve(world.queue.pending()[0]!.key, { outcome: 'selected', optionId: 'reject-once' }, 'user');
    await turn;
    expect(said(session)).toBe('notes:plain notes;env:refused;');
    const [, refused] = await answers(world, session, 'fs/read_text_file');
    expect(refused!.error).toMatchObject({ code: -32602, data: { reason: 'sensitive', refusal: 'rejected', decidedBy: 'user', path: join(world.cwd, '.env') } });
    expect((refused!.error as Json).message).toMatch(/^fs\/read_text_file refused: .*\/\.env is a sensitive file .*the user rejected it$/);
    const records = await expectRebuildsTheSame(world, session);
    expect(ofKind(records, 'permission-decided')).toEqual([expect.objectContaining({ outcome: 'selected', optionId: 'reject-once', by: 'user' })]);
    expect(ofKind(records, 'notice').map((n) => n.message)).toEqual([expect.stringContaining('(sensitive)')]);
    const card = entryList(session.transcript).find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.permissions.length > 0)!;
    expect(card.permissions[0]).toMatchObject({ status: 'selected', optionKind: 'reject_once', decidedBy: 'user' });
  });

  it('is answered cancelled by session/cancel while it waits', async () => {
    const { world, session } = await start({ interactive: true, policy: 'ask' });
    const turn = session.prompt([text('read them')]);
    await waitFor(() => world.queue.pending().length === 1, 'the sensitive read to be queued');
    await session.cancel();
    await turn;
    expect(world.queue.pending()).toEqual([]);
    const [, refused] = await answers(world, session, 'fs/read_text_file');
    expect(refused!.error).toMatchObject({ data: { reason: 'sensitive', refusal: 'cancelled', decidedBy: 'session-cancel' } });
    const records = await expectRebuildsTheSame(world, session);
    expect(ofKind(records, 'permission-decided')).toEqual([expect.objectContaining({ outcome: 'cancelled', by: 'session-cancel' })]);
  });

  it.each<ApprovePolicy>(['all', 'reads', 'ask', 'none'])('is refused without a person under policy "%s", saying how to allow it', async (policy) => {
    const { world, session } = await start({ interactive: false, policy });
    await session.prompt([text('read them')]);
    expect(world.queue.pending()).toEqual([]);
    expect(said(session)).toBe('notes:plain notes;env:refused;');
    const [, refused] = await answers(world, session, 'fs/read_text_file');
    expect(refused!.error).toMatchObject({ code: -32602, data: { reason: 'sensitive', refusal: 'no-person' } });
    expect((refused!.error as Json).message).toContain('--allow-sensitive');
    const records = await expectRebuildsTheSame(world, session);
    expect(ofKind(records, 'permission-decided')).toEqual([expect.objectContaining({ outcome: 'selected', optionId: 'reject-once', by: 'sensitive-path', rule: 'sensitive-path:non-interactive' })]);
  });

  it('is served without a person when the run allows sensitive files (--allow-sensitive), and the trace says so', async () => {
    const { world, session } = await start({ interactive: false, policy: 'none', allowSensitiveFiles: true });
    await session.prompt([text('read them')]);
    expect(said(session)).toBe(`notes:plain notes;env:${SECRET};`);
    const records = await expectRebuildsTheSame(world, session);
    expect(ofKind(records, 'permission-decided')).toEqual([expect.objectContaining({ optionId: 'allow-once', by: 'policy', rule: 'policy:allow-sensitive' })]);
  });
});

describe('a write of .env inside the root', () => {
  it('shows the proposed text, writes after "allow", and leaves the file alone after "reject"', async () => {
    const { world, session } = await start({ interactive: true, policy: 'all' });
    let turn = session.prompt([text('write it')]);
    await waitFor(() => world.queue.pending().length === 1, 'the sensitive write to be queued');
    const [pending] = world.queue.pending();
    expect(pending!.params.toolCall).toMatchObject({ title: `Write ${join(world.cwd, '.env')}`, kind: 'edit', content: [{ type: 'diff', path: join(world.cwd, '.env'), newText: 'API_KEY=rotated\n' }] });
    expect(readFileSync(join(world.cwd, '.env'), 'utf8')).toBe(SECRET);
    world.queue.resolve(pending!.key, { outcome: 'selected', optionId: 'reject-once' }, 'user');
    await turn;
    expect(readFileSync(join(world.cwd, '.env'), 'utf8')).toBe(SECRET);

    turn = session.prompt([text('write it again')]);
    await waitFor(() => world.queue.pending().length === 1, 'the second write to be queued');
    world.queue.resolve(world.queue.pending()[0]!.key, { outcome: 'selected', optionId: 'allow-once' }, 'user');
    await turn;
    expect(readFileSync(join(world.cwd, '.env'), 'utf8')).toBe('API_KEY=rotated\n');
    expect(said(session)).toBe('write:refused;write:ok;');
    const writes = await answers(world, session, 'fs/write_text_file');
    expect(writes.map((m) => (m.error ? (m.error as { data: Json }).data.refusal : 'ok'))).toEqual(['rejected', 'ok']);
    await expectRebuildsTheSame(world, session);
  });

  it('is refused without a person under policy "all"', async () => {
    const { world, session } = await start({ interactive: false, policy: 'all' });
    await session.prompt([text('write it')]);
    expect(said(session)).toBe('write:refused;');
    expect(readFileSync(join(world.cwd, '.env'), 'utf8')).toBe(SECRET);
  });
});
