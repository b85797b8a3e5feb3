/** Small inline SVG icons (no icon font): stroke follows the text colour. */
import type { ReactNode } from 'react';
import { alignToTimeline } from './in-phase';

function Svg({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <svg
      className="tx-icon"
      width="14"
      height="14"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      {children}
    </svg>
  );
}

const KIND_PATHS: Record<string, ReactNode> = {
  read: (
    <>
      <path d="M4 1.5h5.5L12.5 4.5v10h-8.5z" />
      <path d="M9.5 1.5v3h3M6.5 8h4M6.5 10.5h4" />
    </>
  ),
  edit: (
    <>
      <path d="M10.5 2.5l3 3-8 8H2.5v-3z" />
      <path d="M9 4l3 3" />
    </>
  ),
  delete: <path d="M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4M6.8 6.5v4.5M9.2 6.5v4.5" />,
  move: <path d="M2 8h11M9.5 4.5L13 8l-3.5 3.5" />,
  search: (
    <>
      <circle cx="7" cy="7" r="4.5" />
      <path d="M10.3 10.3L14 14" />
    </>
  ),
  execute: (
    <>
      <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" />
      <path d="M4.5 6.5L6.5 8.5 4.5 10.5M8 10.5h3.5" />
    </>
  ),
  think: <path d="M8 1.8a4.3 4.3 0 0 0-2.6 7.7c.5.4.8 1 .8 1.6v.9h3.6v-.9c0-.6.3-1.2.8-1.6A4.3 4.3 0 0 0 8 1.8zM6.3 14.2h3.4" />,
  fetch: (
    <>
      <circle cx="8" cy="8" r="6.3" />
      <path d="M1.7 8h12.6M8 1.7c1.8 1.8 2.6 3.9 2.6 6.3S9.8 12.5 8 14.3M8 1.7C6.2 3.5 5.4 5.6 5.4 8s.8 4.5 2.6 6.3" />
    </>
  ),
  switch_mode: <path d="M2.5 5.5h10l-2.5-2.5M13.5 10.5h-10l2.5 2.5" />,
  other: (
    <>
      <circle cx="8" cy="8" r="2" />
      <path d="M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4" />
    </>
  ),
};

export function ToolKindIcon({ kind }: { kind: string }) {
  return <Svg label={kind}>{KIND_PATHS[kind] ?? KIND_PATHS.other}</Svg>;
}

const STATUS_PATHS: Record<string, ReactNode> = {
  pending: <circle cx="8" cy="8" r="5.5" strokeDasharray="2.5 2" />,
  // Every spinner turns in phase with the others (in-phase.ts).
  in_progress: <path ref={alignToTimeline} className="tx-spin" d="M8 2.5a5.5 5.5 0 1 1-5.5 5.5" />,
  completed: <path d="M3 8.5l3.2 3L13 4.5" />,
  failed: <path d="M4 4l8 8M12 4l-8 8" />,
  cancelled: (
    <>
      <circle cx="8" cy="8" r="5.5" />
      <path d="M4.2 11.8l7.6-7.6" />
    </>
  ),
  // A running call whose turn ended (tool-call-settled.ts): a still circle with a question's dot.
  unsettled: (
    <>
      <circle cx="8" cy="8" r="5.5" strokeDasharray="2.5 2" />
      <path d="M8 7.5v.5" strokeLinecap="round" />
    </>
  ),
};

export function StatusIcon({ status }: { status: string }) {
  return <Svg>{STATUS_PATHS[status] ?? STATUS_PATHS.pending}</Svg>;
}

export function Chevron({ open }: { open: boolean }) {
  return (
    <Svg>
      <path d={open ? 'M4 6l4 4 4-4' : 'M6 4l4 4-4 4'} />
    </Svg>
  );
}
