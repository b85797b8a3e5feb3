import type { CatalogAgentView } from '../../common/api/session-api-types';

/** One `<option>` per catalog agent, for the agent selects: its name (the demo marked), its description as the tooltip. */
export function AgentOptions({ catalog }: { catalog: readonly CatalogAgentView[] }) {
  return (
    <>
      {catalog.map((a) => (
        <option key={a.id} value={a.id} title={a.description}>
          {a.name}
          {a.demo ? ' (demo)' : ''}
        </option>
      ))}
    </>
  );
}
