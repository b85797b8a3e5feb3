import type { TurnEndEntry } from '../../common/transcript/model';
import { useSessions } from '../state/sessions-store';
import { formatCost } from '../../common/text/cost';
import { formatTokens } from '../../common/text/tokens';

const LOOK_BACK = 200;

/** Context used / size, cost, and the last turn's tokens — or "not reported" when the agent sends none. */
export function UsageMeter({ sessionId }: { sessionId: string }) {
  const usage = useSessions((s) => s.views[sessionId]?.transcript.session.usage);
  const turnUsage = useSessions((s) => lastTurnUsage(s.views[sessionId]?.transcript));
  const hasContext = usage?.used !== undefined && usage.size !== undefined && usage.size > 0;
  if (!hasContext && !usage?.cost && !turnUsage) {
    return (
      <span className="usage-meter muted" data-testid="usage-meter" data-reported="false" title="This agent has not reported usage">
        usage not reported
      </span>
    );
  }
  const pct = hasContext ? Math.min(100, Math.round((usage!.used! / usage!.size!) * 100)) : 0;
  const total = turnUsage?.totalTokens ?? turnUsage?.total_tokens;
  return (
    <span className="usage-meter" data-testid="usage-meter" data-reported="true">
      {hasContext && (
        <span className="usage-context" title={`Context: ${usage!.used} of ${usage!.size} tokens`} data-testid="usage-context">
          <span className="usage-bar">
            <span className="usage-fill" style={{ width: `${pct}%` }} />
          </span>
          {formatTokens(usage!.used!)} / {formatTokens(usage!.size!)}
        </span>
      )}
      {usage?.cost && (
        <span className="usage-cost" data-testid="usage-cost">
          {formatCost(usage.cost.amount, usage.cost.currency)}
        </span>
      )}
      {typeof total === 'number' && (
        <span className="usage-turn" data-testid="usage-turn" title="Tokens of the last turn">
          turn {formatTokens(total)} tok
        </span>
      )}
    </span>
  );
}

function lastTurnUsage(t: { ids: readonly string[]; entries: Readonly<Record<string, unknown>> } | undefined): Record<string, number> | undefined {
  if (!t) return undefined;
  for (let i = t.ids.length - 1, n = 0; i >= 0 && n < LOOK_BACK; i--, n++) {
    const e = t.entries[t.ids[i]!] as TurnEndEntry | undefined;
    if (e?.kind === 'turn_end') return e.usage as Record<string, number> | undefined;
  }
  return undefined;
}
