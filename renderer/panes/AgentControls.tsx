import { useState } from 'react';
import type { SessionConfigOption } from '../../common/transcript/acp-types';
import { api, errorText } from '../api/api-context';
import { useSessions } from '../state/sessions-store';

/**
 * Controls generated from what the agent declared, never hard-coded per agent: config options in
 * the agent's order (selects with groups, booleans as toggles); modes only when no mode config
 * option exists; models only when the legacy `models` block is the only source.
 */
export function AgentControls({ sessionId }: { sessionId: string }) {
  const session = useSessions((s) => s.views[sessionId]?.transcript.session);
  const [error, setError] = useState<string | null>(null);
  if (!session) return null;
  const options = (session.configOptions ?? []).filter((o) => o.type === 'select' || o.type === 'boolean');
  const hasModeOption = options.some((o) => o.category === 'mode');
  const hasModelOption = options.some((o) => o.category === 'model');
  const modes = !hasModeOption ? session.modes : undefined;
  const models = !hasModelOption ? session.models : undefined;
  const run = (p: Promise<unknown>) => {
    setError(null);
    p.catch((err: unknown) => setError(errorText(err)));
  };
  return (
    <div className="agent-controls" data-testid="agent-controls">
      {options.map((option) =>
        option.type === 'boolean' ? (
          <label key={option.id} className="control toggle" title={option.description ?? option.name}>
            <input
              type="checkbox"
              data-testid="config-toggle"
              data-config-id={option.id}
              checked={option.currentValue === true}
              onChange={(e) => run(api().request('session/set-config', { sessionId, configId: option.id, value: e.target.checked }))}
            />
            {option.name}
          </label>
        ) : (
          <label key={option.id} className="control" title={option.description ?? option.name}>
            <span className="control-label">{option.name}</span>
            <select
              data-testid="config-select"
              data-config-id={option.id}
              value={String(option.currentValue ?? '')}
              onChange={(e) => run(api().request('session/set-config', { sessionId, configId: option.id, value: e.target.value }))}
            >
              <SelectOptions option={option} />
            </select>
          </label>
        ),
      )}
      {modes && modes.availableModes.length > 0 && (
        <label className="control">
          <span className="control-label">Mode</span>
          <select data-testid="mode-select" value={modes.currentModeId} onChange={(e) => run(api().request('session/set-mode', { sessionId, modeId: e.target.value }))}>
            {modes.availableModes.map((m) => (
              <option key={m.id} value={m.id} title={m.description ?? undefined}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {models && models.availableModels.length > 0 && (
        <label className="control">
          <span className="control-label">Model</span>
          <select data-testid="model-select" value={models.currentModelId} onChange={(e) => run(api().request('session/set-model', { sessionId, modelId: e.target.value }))}>
            {models.availableModels.map((m) => (
              <option key={m.modelId} value={m.modelId}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {error && (
        <span className="error small" role="alert" data-testid="controls-error">
          {error}
        </span>
      )}
    </div>
  );
}

type SelectItem = { value?: unknown; name?: unknown; group?: unknown; options?: unknown[] };

function SelectOptions({ option }: { option: SessionConfigOption }) {
  const items = (option.options ?? []) as SelectItem[];
  return (
    <>
      {items.map((item, i) =>
        Array.isArray(item.options) ? (
          <optgroup key={`g${i}`} label={String(item.name ?? item.group ?? '')}>
            {(item.options as SelectItem[]).map((o) => (
              <option key={String(o.value)} value={String(o.value)}>
                {String(o.name ?? o.value)}
              </option>
            ))}
          </optgroup>
        ) : (
          <option key={String(item.value)} value={String(item.value)}>
            {String(item.name ?? item.value)}
          </option>
        ),
      )}
    </>
  );
}
