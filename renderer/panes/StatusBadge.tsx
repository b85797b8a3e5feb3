import type { SessionStatus } from '../../common/api/session-types';

export const STATUS_LABEL: Record<SessionStatus, string> = {
  starting: 'Starting…',
  ready: 'Ready',
  prompting: 'Working…',
  waiting: 'Waiting for you',
  cancelled: 'Cancelled',
  crashed: 'Crashed',
  closed: 'Closed',
};

export function StatusBadge({ status }: { status: SessionStatus }) {
  return <span className={`status-dot status-${status}`} role="img" aria-label={STATUS_LABEL[status]} title={STATUS_LABEL[status]} />;
}
