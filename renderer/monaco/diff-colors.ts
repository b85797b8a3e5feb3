/**
 * The diff highlight colours of the workbench's Monaco themes. Monaco's own `vs-dark` inserted and
 * removed backgrounds are faint on #1e1e1e; these read well in both themes (line tint plus a
 * stronger tint for the changed characters), in the same greens and reds as the transcript's diffs.
 */
import type { MonacoThemeName } from './diff-policy';

export const WORKBENCH_THEME: Record<MonacoThemeName, string> = { vs: 'acp-workbench-light', 'vs-dark': 'acp-workbench-dark' };

export const DIFF_COLORS: Record<MonacoThemeName, Record<string, string>> = {
  vs: {
    'diffEditor.insertedLineBackground': '#2ea04326',
    'diffEditor.insertedTextBackground': '#2ea04366',
    'diffEditor.removedLineBackground': '#ff818240',
    'diffEditor.removedTextBackground': '#ff818280',
    'diffEditorGutter.insertedLineBackground': '#2ea04340',
    'diffEditorGutter.removedLineBackground': '#ff818259',
  },
  'vs-dark': {
    'diffEditor.insertedLineBackground': '#2ea04340',
    'diffEditor.insertedTextBackground': '#3fb95080',
    'diffEditor.removedLineBackground': '#f8514940',
    'diffEditor.removedTextBackground': '#f8514980',
    'diffEditorGutter.insertedLineBackground': '#2ea04359',
    'diffEditorGutter.removedLineBackground': '#f8514959',
  },
};
