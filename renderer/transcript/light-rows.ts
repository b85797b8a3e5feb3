/**
 * Light rows while a pane scrolls fast. Every row a fast scroll brings into view costs its full
 * rendering (store subscriptions, markdown, buttons, their DOM, style and layout) although it is
 * in view for a frame or two: 4 panes scrolled 400 px a frame mount ≈ 58 rows a frame (issue #11,
 * scrolling long transcripts). As editors and chat apps do, a row that enters a pane during a fast
 * scroll is drawn light — its plain text on one line, in a box of the row's known height — and
 * becomes its full self once the pane is still, a few rows per task. Rows already mounted in full
 * stay full (a focused button in one is not lost), and a slow scroll (a few rows a frame: a wheel
 * notch, arrow keys) mounts full rows as before. The decision is in docs/decisions.md.
 */
import type { Entry } from '../../common/transcript/model';

/** More rows than this entering a pane in one render: the pane scrolls fast. */
export const FAST_ROWS = 6;
/** Light rows turned full per task once the pane is still (one pane's task stays small). */
export const UPGRADE_ROWS = 6;

type Key = string | number | bigint;

export interface LightRows {
  /**
   * Which of the rows asked for this render (`keys`, in index order) are drawn light. A pane that
   * is still upgrades `UPGRADE_ROWS` of its light rows per call, the first ones first.
   */
  pick(keys: readonly Key[], scrolling: boolean): ReadonlySet<Key>;
}

const NONE: ReadonlySet<Key> = new Set();

export function createLightRows(): LightRows {
  let mounted = new Set<Key>();
  let light: ReadonlySet<Key> = NONE;
  return {
    pick(keys, scrolling) {
      let entering = 0;
      if (scrolling) for (const key of keys) if (!mounted.has(key)) entering++;
      const fast = entering > FAST_ROWS;
      if (!fast && light.size === 0) {
        mounted = new Set(keys);
        return NONE;
      }
      let upgrades = scrolling ? 0 : UPGRADE_ROWS;
      const next = new Set<Key>();
      for (const key of keys) {
        if (light.has(key)) {
          if (upgrades > 0) upgrades--;
          else next.add(key);
        } else if (fast && !mounted.has(key)) next.add(key);
      }
      mounted = new Set(keys);
      light = next.size ? next : NONE;
      return light;
    },
  };
}

/** Characters of an entry's text a light row shows at most (one line of a pane; the rest is clipped). */
const LIGHT_CHARS = 300;
/** Pixels per character no line of prose goes below (13 px text: an average glyph is ≈ 6.5 px). */
const MIN_CHAR_PX = 4;

/**
 * How many characters a light row of a pane this wide (px) needs to fill its line: the browser
 * shapes and lays out a row's whole text although one line of it shows, so a narrow pane's light
 * rows carry no more than fills it (4 panes side by side show ≈ 50 of 300 characters).
 */
export function lightChars(paneWidth: number | undefined): number {
  if (!paneWidth || paneWidth <= 0) return LIGHT_CHARS;
  return Math.min(LIGHT_CHARS, Math.max(40, Math.ceil(paneWidth / MIN_CHAR_PX)));
}

/** The plain text a light row shows for an entry: the start of its text, a tool call's title. */
export function lightText(entry: Entry | undefined, chars = LIGHT_CHARS): string {
  if (!entry) return '';
  switch (entry.kind) {
    case 'user_message':
    case 'agent_message':
    case 'thought': {
      const first = entry.content.find((b) => b.type === 'text');
      const text = first && first.type === 'text' ? first.text.slice(0, chars) : '';
      return entry.kind === 'thought' ? `Thought ${text}` : text;
    }
    case 'tool_call':
      return entry.title;
    default:
      return '';
  }
}
