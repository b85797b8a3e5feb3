/**
 * Window layout: which sessions are shown as panes (1 to 6, in order), their widths, the focused
 * pane, which panes a prompt goes to, the theme, whether the sidebar shows, and open dialogs. Pane
 * order and widths, their open inspectors and changes panels, and the sidebar survive a restart
 * (localStorage); the theme is a setting (renderer/settings), kept here too so a reload paints in it
 * before the core answers.
 */
import { create } from 'zustand';

export const MAX_PANES = 6;
export type ThemeChoice = 'system' | 'light' | 'dark';

export interface LayoutStore {
  panes: string[];
  widths: Record<string, number>;
  focused: string | null;
  /**
   * A pane whose composer takes the keyboard at its next render: set when the user opens a
   * session (started, resumed, forked, picked in the sidebar), so what they type next goes to it
   * without a click. The composer clears it once focused (`layout.typed`).
   */
  typeInto: string | null;
  /** Panes a prompt is sent to with "send to selected". */
  selected: string[];
  theme: ThemeChoice;
  /** The sidebar is hidden (Ctrl+B): the panes take the window's width. Survives a restart. */
  sidebarHidden: boolean;
  newSessionOpen: boolean;
  paletteOpen: boolean;
  /** The Keyboard shortcuts dialog (Ctrl+/). */
  shortcutsOpen: boolean;
  agentsOpen: boolean;
  changesOpen: Record<string, boolean>;
  /** Panes showing the protocol inspector, and its share of the pane's height. */
  inspectorOpen: Record<string, boolean>;
  inspectorHeight: number;
}

const STORAGE_KEY = 'acp-workbench.layout.v1';

/** A stored record of panes' open panels: the `true` ones only, or undefined when it is not one. */
function openFlags(value: unknown): Record<string, boolean> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, boolean> = {};
  for (const [id, open] of Object.entries(value)) if (open === true) out[id] = true;
  return out;
}

/** The open panels of the panes shown (a closed session's flags are not kept). */
function openOfPanes(flags: Record<string, boolean>, panes: readonly string[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const id of panes) if (flags[id]) out[id] = true;
  return out;
}

function load(): Partial<LayoutStore> {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return {};
    const value = JSON.parse(raw) as Partial<LayoutStore>;
    return {
      ...(Array.isArray(value.panes) ? { panes: value.panes.filter((p) => typeof p === 'string').slice(0, MAX_PANES) } : {}),
      ...(value.widths && typeof value.widths === 'object' ? { widths: value.widths } : {}),
      ...(value.theme === 'light' || value.theme === 'dark' || value.theme === 'system' ? { theme: value.theme } : {}),
      ...(value.sidebarHidden === true ? { sidebarHidden: true } : {}),
      ...(openFlags(value.inspectorOpen) ? { inspectorOpen: openFlags(value.inspectorOpen)! } : {}),
      ...(openFlags(value.changesOpen) ? { changesOpen: openFlags(value.changesOpen)! } : {}),
      ...(typeof value.inspectorHeight === 'number' && value.inspectorHeight >= 0.2 && value.inspectorHeight <= 0.9 ? { inspectorHeight: value.inspectorHeight } : {}),
    };
  } catch {
    return {};
  }
}

export const useLayout = create<LayoutStore>(() => ({
  panes: [],
  widths: {},
  focused: null,
  typeInto: null,
  selected: [],
  theme: 'system',
  sidebarHidden: false,
  newSessionOpen: false,
  paletteOpen: false,
  shortcutsOpen: false,
  agentsOpen: false,
  changesOpen: {},
  inspectorOpen: {},
  inspectorHeight: 0.55,
  ...load(),
}));

useLayout.subscribe((s) => {
  const kept = {
    panes: s.panes,
    widths: s.widths,
    theme: s.theme,
    sidebarHidden: s.sidebarHidden,
    inspectorOpen: openOfPanes(s.inspectorOpen, s.panes),
    changesOpen: openOfPanes(s.changesOpen, s.panes),
    inspectorHeight: s.inspectorHeight,
  };
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(kept));
  } catch {
    // Storage full or disabled: the layout just is not remembered.
  }
});

export const layout = {
  show(sessionId: string): void {
    const s = useLayout.getState();
    if (s.panes.includes(sessionId)) return useLayout.setState({ focused: sessionId, typeInto: sessionId });
    const panes = [...s.panes, sessionId];
    // Past the limit the oldest pane makes room (its session keeps running in the sidebar).
    while (panes.length > MAX_PANES) panes.shift();
    useLayout.setState({ panes, focused: sessionId, typeInto: sessionId });
  },
  /** The composer of `typeInto` has the keyboard. */
  typed(): void {
    if (useLayout.getState().typeInto !== null) useLayout.setState({ typeInto: null });
  },
  hide(sessionId: string): void {
    const s = useLayout.getState();
    const panes = s.panes.filter((p) => p !== sessionId);
    useLayout.setState({ panes, focused: s.focused === sessionId ? (panes[panes.length - 1] ?? null) : s.focused, selected: s.selected.filter((p) => p !== sessionId) });
  },
  replace(oldId: string, newId: string): void {
    const s = useLayout.getState();
    // A restarted session takes its predecessor's place, focus and keyboard.
    const focused = s.focused === oldId ? newId : s.focused;
    useLayout.setState({ panes: s.panes.map((p) => (p === oldId ? newId : p)), focused, typeInto: focused === newId ? newId : s.typeInto });
  },
  move(sessionId: string, delta: -1 | 1): void {
    const panes = [...useLayout.getState().panes];
    const i = panes.indexOf(sessionId);
    const j = i + delta;
    if (i < 0 || j < 0 || j >= panes.length) return;
    [panes[i], panes[j]] = [panes[j]!, panes[i]!];
    useLayout.setState({ panes });
  },
  focus(sessionId: string | null): void {
    useLayout.setState({ focused: sessionId });
  },
  focusIndex(n: number): void {
    const id = useLayout.getState().panes[n];
    if (id) useLayout.setState({ focused: id });
  },
  toggleSelected(sessionId: string): void {
    const s = useLayout.getState();
    useLayout.setState({ selected: s.selected.includes(sessionId) ? s.selected.filter((p) => p !== sessionId) : [...s.selected, sessionId] });
  },
  setWidth(sessionId: string, width: number): void {
    useLayout.setState({ widths: { ...useLayout.getState().widths, [sessionId]: Math.max(0.2, Math.min(5, width)) } });
  },
  /** Hide or show the sidebar (no argument: the other way). */
  toggleSidebar(hidden = !useLayout.getState().sidebarHidden): void {
    useLayout.setState({ sidebarHidden: hidden });
  },
  setTheme(theme: ThemeChoice): void {
    useLayout.setState({ theme });
  },
  openNewSession(open = true): void {
    useLayout.setState({ newSessionOpen: open });
  },
  openPalette(open = true): void {
    useLayout.setState({ paletteOpen: open });
  },
  openShortcuts(open = true): void {
    useLayout.setState({ shortcutsOpen: open });
  },
  openAgents(open = true): void {
    useLayout.setState({ agentsOpen: open });
  },
  toggleChanges(sessionId: string): void {
    const c = useLayout.getState().changesOpen;
    useLayout.setState({ changesOpen: { ...c, [sessionId]: !c[sessionId] } });
  },
  toggleInspector(sessionId: string): void {
    layout.openInspector(sessionId, !useLayout.getState().inspectorOpen[sessionId]);
  },
  openInspector(sessionId: string, open = true): void {
    const c = useLayout.getState().inspectorOpen;
    if (!!c[sessionId] !== open) useLayout.setState({ inspectorOpen: { ...c, [sessionId]: open } });
  },
  setInspectorHeight(fraction: number): void {
    useLayout.setState({ inspectorHeight: Math.max(0.2, Math.min(0.9, fraction)) });
  },
};
