/**
 * A session's family: from its oldest recorded ancestor down through every resume and fork.
 * Built from the history index's entries (their lineage), not from the traces.
 */
import type { Lineage } from '../../../../common/trace/records';
import type { HistoryStore } from '../history-store';
import type { HistoryEntry } from '../history-types';

export interface LineageNode {
  id: string;
  title: string;
  agent: string;
  createdAt: string;
  status: HistoryEntry['status'];
  /** How it came from its parent (absent for the root). */
  relation?: Lineage['relation'];
  by?: Lineage['by'];
  beforeMessage?: number;
  forkEntryId?: string;
  children: LineageNode[];
}

export interface LineageTree {
  root: LineageNode;
  /** The session asked about. */
  focus: string;
  /** Ancestors named in lineage but no longer in history (deleted). */
  missingParent?: string;
}

const MAX_DEPTH = 64;

export function lineageTree(store: HistoryStore, idOrPrefix: string): LineageTree {
  const focus = store.require(idOrPrefix);
  const all = store.list();
  const children = new Map<string, HistoryEntry[]>();
  for (const e of all) {
    const p = e.lineage?.parentSessionId;
    if (p && e.lineage?.relation) (children.get(p) ?? children.set(p, []).get(p)!).push(e);
  }
  let top = focus;
  let missingParent: string | undefined;
  for (let i = 0; i < MAX_DEPTH; i++) {
    const p = top.lineage?.relation ? top.lineage.parentSessionId : undefined;
    if (!p) break;
    const parent = store.get(p);
    if (!parent) {
      missingParent = p;
      break;
    }
    top = parent;
  }
  const seen = new Set<string>();
  const build = (e: HistoryEntry): LineageNode => {
    seen.add(e.id);
    const kids = (children.get(e.id) ?? []).filter((c) => !seen.has(c.id)).sort((a, b) => a.createdMs - b.createdMs);
    return {
      id: e.id,
      title: e.title,
      agent: e.agent.label,
      createdAt: e.createdAt,
      status: e.status,
      ...(e.lineage?.relation ? { relation: e.lineage.relation } : {}),
      ...(e.lineage?.by ? { by: e.lineage.by } : {}),
      ...(e.lineage?.forkPoint?.beforeMessage !== undefined ? { beforeMessage: e.lineage.forkPoint.beforeMessage } : {}),
      ...(e.lineage?.forkPoint?.entryId ? { forkEntryId: e.lineage.forkPoint.entryId } : {}),
      children: kids.map(build),
    };
  };
  return { root: build(top), focus: focus.id, ...(missingParent ? { missingParent } : {}) };
}

/** The tree as indented text lines (the CLI's `sessions tree`). */
export function lineageLines(tree: LineageTree): string[] {
  const out: string[] = [];
  if (tree.missingParent) out.push(`(parent ${tree.missingParent} is no longer in history)`);
  const walk = (n: LineageNode, prefix: string, last: boolean, root: boolean) => {
    const how = n.relation ? ` [${n.relation}${n.by ? ` by ${n.by}` : ''}${n.beforeMessage !== undefined ? `, before message ${n.beforeMessage}` : ''}]` : '';
    const mark = n.id === tree.focus ? ' *' : '';
    out.push(`${root ? '' : `${prefix}${last ? '└─ ' : '├─ '}`}${n.id}  ${n.agent}  ${n.createdAt.slice(0, 16).replace('T', ' ')}  ${n.title}${how}${mark}`);
    n.children.forEach((c, i) => walk(c, root ? '' : `${prefix}${last ? '   ' : '│  '}`, i === n.children.length - 1, false));
  };
  walk(tree.root, '', true, true);
  return out;
}
