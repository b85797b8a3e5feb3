/**
 * Pretty JSON with collapsible nodes: objects and arrays open to `openDepth`, the rest closed with
 * a one-line summary; long strings and long arrays are cut, with a button for the rest. Values are
 * rendered as text, never as HTML (agent data is untrusted).
 */
import { useState } from 'react';
import { counted } from '../../common/text/counted';

const STRING_CUT = 2000;
const ITEMS_CUT = 200;

export function JsonTree({ value, openDepth = 2, testId = 'json-tree' }: { value: unknown; openDepth?: number; testId?: string }) {
  return (
    <div className="json-tree" data-testid={testId}>
      <JsonNode name={null} value={value} path="$" depth={0} openDepth={openDepth} comma={false} />
    </div>
  );
}

interface NodeProps {
  name: string | null;
  value: unknown;
  path: string;
  depth: number;
  openDepth: number;
  comma: boolean;
}

function JsonNode({ name, value, path, depth, openDepth, comma }: NodeProps) {
  const composite = value !== null && typeof value === 'object';
  const [open, setOpen] = useState(depth < openDepth);
  const [shown, setShown] = useState(ITEMS_CUT);
  const key =
    name === null ? null : (
      <>
        <span className="json-key">{name}</span>
        <span className="json-punct">: </span>
      </>
    );
  if (!composite) {
    return (
      <div className="json-line" data-testid="json-node" data-path={path}>
        {key}
        <Primitive value={value} />
        {comma && <span className="json-punct">,</span>}
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const entries: Array<[string, unknown]> = isArray ? (value as unknown[]).map((v, i) => [String(i), v]) : Object.entries(value as Record<string, unknown>);
  const [openB, closeB] = isArray ? ['[', ']'] : ['{', '}'];
  const summary = counted(entries.length, isArray ? 'item' : 'key');
  if (entries.length === 0) {
    return (
      <div className="json-line" data-testid="json-node" data-path={path}>
        {key}
        <span className="json-punct">
          {openB}
          {closeB}
        </span>
        {comma && <span className="json-punct">,</span>}
      </div>
    );
  }
  return (
    <div className="json-composite" data-testid="json-node" data-path={path} data-open={open ? 'true' : 'false'}>
      <div className="json-line">
        <button type="button" className="json-toggle" data-testid="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)} title={open ? 'Collapse' : 'Expand'}>
          {open ? '▾' : '▸'}
        </button>
        {key}
        <span className="json-punct">{openB}</span>
        {!open && (
          <>
            <button type="button" className="json-summary" onClick={() => setOpen(true)}>
              {summary}
            </button>
            <span className="json-punct">{closeB}</span>
            {comma && <span className="json-punct">,</span>}
          </>
        )}
      </div>
      {open && (
        <>
          <div className="json-children">
            {entries.slice(0, shown).map(([k, v], i) => (
              <JsonNode
                key={k}
                name={isArray ? null : JSON.stringify(k)}
                value={v}
                path={isArray ? `${path}[${k}]` : `${path}.${k}`}
                depth={depth + 1}
                openDepth={openDepth}
                comma={i < entries.length - 1}
              />
            ))}
            {entries.length > shown && (
              <button type="button" className="json-more" onClick={() => setShown(shown + ITEMS_CUT * 5)}>
                … {entries.length - shown} more
              </button>
            )}
          </div>
          <div className="json-line">
            <span className="json-punct">{closeB}</span>
            {comma && <span className="json-punct">,</span>}
          </div>
        </>
      )}
    </div>
  );
}

function Primitive({ value }: { value: unknown }) {
  const [all, setAll] = useState(false);
  if (typeof value === 'string') {
    const text = JSON.stringify(value);
    const cut = !all && text.length > STRING_CUT;
    return (
      <span className="json-string">
        {cut ? `${text.slice(0, STRING_CUT)}…` : text}
        {cut && (
          <button type="button" className="json-more" onClick={() => setAll(true)}>
            show all {value.length} characters
          </button>
        )}
      </span>
    );
  }
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-bool">{String(value)}</span>;
  if (value === null) return <span className="json-null">null</span>;
  return <span className="json-null">{String(value)}</span>;
}
