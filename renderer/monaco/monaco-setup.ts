/**
 * The Monaco side of the diff views — only ever reached through `load-monaco.ts`'s dynamic import,
 * so the first paint does not pay for it. Bundled from node_modules (never a CDN), diff editor only
 * (not the whole `editor.main`: no language services, ~1/4 of the size), with the editor worker
 * built by Vite from 'self' (the CSP allows workers from 'self' and blob:, scripts only from 'self').
 *
 * monaco-editor 0.57 has an `exports` map ("./*" → "./esm/vs/*.js"), so deep `esm/vs/...` imports
 * fail; these are the public paths.
 */
import { baseName } from '../../common/text/base-name';
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
// The gutter and "unchanged regions" toggles are codicons: without this CSS they are empty boxes.
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/diffEditor/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/clipboard/register';
// Monarch tokenizers: each registers a lazy loader (a small chunk fetched when a file of that language is shown).
import 'monaco-editor/languages/definitions/register.all';
import { keepAriaLabel } from './aria-label';
import { DIFF_COLORS, WORKBENCH_THEME } from './diff-colors';
import { currentMonacoTheme, watchMonacoTheme } from './theme';

/** Labels of language services whose workers are not bundled (their features are not imported either). */
const UNBUNDLED_WORKERS = new Set(['json', 'css', 'scss', 'less', 'html', 'handlebars', 'razor', 'typescript', 'javascript']);

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    // Pick by label: handing the editor worker to a language service breaks that service.
    if (UNBUNDLED_WORKERS.has(label)) throw new Error(`No Monaco worker is bundled for the ${label} language service`);
    return new EditorWorker({ name: label });
  },
};

for (const base of ['vs', 'vs-dark'] as const) {
  monaco.editor.defineTheme(WORKBENCH_THEME[base], { base, inherit: true, rules: [], colors: DIFF_COLORS[base] });
}
monaco.editor.setTheme(WORKBENCH_THEME[currentMonacoTheme()]);
watchMonacoTheme(() => monaco.editor.setTheme(WORKBENCH_THEME[currentMonacoTheme()]));

export type Monaco = typeof monaco;

export interface DiffEditorHandle {
  /** Replace both texts (keeps the editor and its view state). */
  update(oldText: string, newText: string): void;
  /** Calls `listener` with the height the diff needs (the taller side, unchanged regions folded). */
  onContentHeight(listener: (height: number) => void): void;
  dispose(): void;
}

export interface CreateDiffOptions {
  oldText: string;
  newText: string;
  /** Gives the models their language (by extension). */
  path: string;
  /** Compact: inline in a card (no minimap / overview ruler, smaller font). */
  compact: boolean;
}

let modelCount = 0;

/** How both kinds of view look: read-only code in a card or a dialog, no editor chrome. */
function viewOptions(compact: boolean) {
  return {
    scrollBeyondLastLine: false,
    minimap: { enabled: false },
    hideCursorInOverviewRuler: true,
    overviewRulerBorder: false,
    fontSize: compact ? 12 : 13,
    lineNumbersMinChars: compact ? 4 : 5,
    folding: false,
    glyphMargin: false,
    contextmenu: false,
    stickyScroll: { enabled: false },
    // Inline in a scrolling transcript, the wheel scrolls the page once the editor is at its end.
    scrollbar: { alwaysConsumeMouseWheel: false, verticalScrollbarSize: 10, horizontalScrollbarSize: 10 },
    padding: { top: 4, bottom: 4 },
  } satisfies monaco.editor.IEditorOptions;
}

/** The last part of a path: unique model URIs end with it, so the models get the file's language. */
function fileName(path: string): string {
  const name = baseName(path);
  return /^[\\/]*$/.test(name) ? 'file' : name; // '' or only separators
}

/** A read-only diff editor in `container`, with its two models; `dispose` frees all three. */
export function createDiffEditor(container: HTMLElement, options: CreateDiffOptions): DiffEditorHandle {
  const n = ++modelCount;
  const name = fileName(options.path);
  // Unique URIs (several views may show one file); the file name at the end gives the language.
  const original = monaco.editor.createModel(options.oldText, undefined, monaco.Uri.from({ scheme: 'inmemory', path: `/diff-${n}/original/${name}` }));
  const modified = monaco.editor.createModel(options.newText, undefined, monaco.Uri.from({ scheme: 'inmemory', path: `/diff-${n}/modified/${name}` }));
  const editor = monaco.editor.createDiffEditor(container, {
    readOnly: true,
    originalEditable: false,
    automaticLayout: true,
    // Diffs taking longer give up (and say so) rather than hold the worker.
    maxComputationTime: 3000,
    maxFileSize: 50,
    hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 3, revealLineCount: 20 },
    renderSideBySide: true,
    useInlineViewWhenSpaceIsLimited: true,
    renderSideBySideInlineBreakpoint: 640,
    ignoreTrimWhitespace: false,
    renderIndicators: true,
    renderOverviewRuler: !options.compact,
    ...viewOptions(options.compact),
  });
  editor.setModel({ original, modified });
  // Names for the two editors' text boxes (a screen reader's only clue to which side it is in).
  const labels = [
    keepAriaLabel(editor.getOriginalEditor(), `${name}, before the change`),
    keepAriaLabel(editor.getModifiedEditor(), `${name}, after the change`),
  ];
  return {
    update(oldText, newText) {
      if (original.getValue() !== oldText) original.setValue(oldText);
      if (modified.getValue() !== newText) modified.setValue(newText);
    },
    onContentHeight(listener) {
      const report = () =>
        listener(Math.max(editor.getOriginalEditor().getContentHeight(), editor.getModifiedEditor().getContentHeight()));
      editor.getOriginalEditor().onDidContentSizeChange(report);
      editor.getModifiedEditor().onDidContentSizeChange(report);
      editor.onDidUpdateDiff(report);
      report();
    },
    dispose() {
      for (const label of labels) label.dispose();
      // The editor first (its listeners go with it): disposing its models under it makes it throw.
      editor.dispose();
      original.dispose();
      modified.dispose();
    },
  };
}

export interface WholeFileOptions {
  /** The file's text: the new text of a created file, the old text of a deleted one. */
  text: string;
  path: string;
  compact: boolean;
  change: 'added' | 'removed';
}

/** Monaco's own diff classes and gutter signs, per side. */
const WHOLE_FILE_MARKS = {
  added: { isWholeLine: true, className: 'line-insert', linesDecorationsClassName: 'insert-sign codicon codicon-diff-insert' },
  removed: { isWholeLine: true, className: 'line-delete', linesDecorationsClassName: 'delete-sign codicon codicon-diff-remove' },
} as const;

/**
 * A file the change creates or deletes, as that one side of a diff alone: a read-only editor with
 * every line marked inserted (or removed). A diff editor would show the missing side as one empty
 * line, and so a phantom removed (or added) line 1 beside the file's text.
 */
export function createWholeFileEditor(container: HTMLElement, options: WholeFileOptions): DiffEditorHandle {
  const n = ++modelCount;
  const name = fileName(options.path);
  const model = monaco.editor.createModel(options.text, undefined, monaco.Uri.from({ scheme: 'inmemory', path: `/diff-${n}/${options.change}/${name}` }));
  const editor = monaco.editor.create(container, {
    model,
    readOnly: true,
    automaticLayout: true,
    overviewRulerLanes: 0,
    renderLineHighlight: 'none',
    // Room for the '+' sign between the line numbers and the text, as in the diff editor.
    lineDecorationsWidth: 18,
    ...viewOptions(options.compact),
  });
  const marks = editor.createDecorationsCollection();
  const markAll = () => {
    // The empty line after a final newline is not a line of the file (the unified diff's count).
    const last = model.getLineCount() - (model.getValue().endsWith('\n') ? 1 : 0);
    marks.set(last >= 1 ? [{ range: new monaco.Range(1, 1, last, 1), options: WHOLE_FILE_MARKS[options.change] }] : []);
  };
  markAll();
  return {
    update(oldText, newText) {
      const text = options.change === 'added' ? newText : oldText;
      if (model.getValue() === text) return;
      model.setValue(text);
      markAll();
    },
    onContentHeight(listener) {
      editor.onDidContentSizeChange(() => listener(editor.getContentHeight()));
      listener(editor.getContentHeight());
    },
    dispose() {
      editor.dispose();
      model.dispose();
    },
  };
}

/** Live diff editors (for tests and the status of the pool). */
export function liveDiffEditorCount(): number {
  return monaco.editor.getDiffEditors().length;
}
