import { memo } from 'react';
import type { PlanEntryItem } from '../../../common/transcript/model';
import { EntryShell } from './common';

const MARK: Record<string, string> = { pending: '○', in_progress: '◐', completed: '●' };
const STATUS_TEXT: Record<string, string> = { pending: 'pending', in_progress: 'in progress', completed: 'done' };

/** The agent's plan as a checklist; each update replaces the whole list. */
export const PlanCard = memo(function PlanCard({ entry }: { entry: PlanEntryItem }) {
  const done = entry.entries.filter((e) => e.status === 'completed').length;
  return (
    <EntryShell entry={entry}>
      <div className="tx-plan" data-testid="plan">
        <div className="tx-plan-head">
          <span className="tx-plan-title">Plan</span>
          <span className="tx-muted" data-testid="plan-progress">
            {done}/{entry.entries.length} done
          </span>
        </div>
        {entry.entries.length === 0 ? <div className="tx-muted">(empty plan)</div> : null}
        <ul className="tx-plan-list">
          {entry.entries.map((item, i) => {
            const status = String(item.status);
            const priority = String(item.priority ?? '');
            return (
              <li key={i} className={`tx-plan-item tx-plan-${status}`} data-testid="plan-item" data-status={status} data-priority={priority}>
                <span className="tx-plan-mark" role="img" aria-label={STATUS_TEXT[status] ?? status}>
                  {MARK[status] ?? '?'}
                </span>
                <span className="tx-plan-content">{typeof item.content === 'string' ? item.content : JSON.stringify(item.content)}</span>
                {priority ? (
                  <span className={`tx-priority tx-priority-${priority}`} data-testid="plan-item-priority">
                    {priority}
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
      </div>
    </EntryShell>
  );
});
