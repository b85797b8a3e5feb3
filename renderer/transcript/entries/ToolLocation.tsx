/**
 * A file a tool call touches: its folders (which give way, with an ellipsis, in a narrow pane) and
 * its name (whole), with the line when the agent gave one. A click copies the path; where the
 * clipboard is refused, the path is shown in a selected field to copy by hand.
 */
import { useState } from 'react';
import type { ToolCallLocation } from '../../../common/transcript/acp-types';
import { copyText } from '../CopyButton';

export function ToolLocation({ location }: { location: ToolCallLocation }) {
  const [state, setState] = useState<'idle' | 'copied' | 'shown'>('idle');
  const label = `${location.path}${location.line ? `:${location.line}` : ''}`;
  const cut = location.path.search(/[^\\/]*$/);
  return (
    <span className="tx-location-wrap">
      <button
        type="button"
        className="tx-location"
        data-testid="tool-location"
        data-path={location.path}
        title={`${label} — click to copy the path`}
        onClick={() =>
          void copyText(location.path).then((ok) => {
            setState(ok ? 'copied' : 'shown');
            if (ok) setTimeout(() => setState((s) => (s === 'copied' ? 'idle' : s)), 1500);
          })
        }
      >
        <span className="tx-location-dir">{location.path.slice(0, cut)}</span>
        <span className="tx-location-name">
          {location.path.slice(cut)}
          {location.line ? `:${location.line}` : ''}
        </span>
      </button>
      {state === 'copied' ? <span className="tx-muted tx-location-note">copied</span> : null}
      {state === 'shown' ? (
        <input className="tx-location-text" data-testid="tool-location-text" readOnly value={location.path} onFocus={(e) => e.currentTarget.select()} autoFocus />
      ) : null}
    </span>
  );
}
