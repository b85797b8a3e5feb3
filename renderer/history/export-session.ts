import type { HistoryExportParams } from '../../common/api/history-types';
import { api, errorText } from '../api/api-context';
import { downloadText } from '../app/download-text';
import { statusNote } from '../state/status-note';

export type ExportFormat = HistoryExportParams['format'];

const WHAT: Record<ExportFormat, string> = { md: 'transcript as Markdown', json: 'transcript as JSON', jsonl: 'trace' };

/**
 * Download a recorded session (a live one too: it is recorded as it goes) from outside History — the
 * palette's "export the focused session". The outcome goes to the status bar: there is no screen to
 * say it on.
 */
export async function exportSession(id: string, format: ExportFormat): Promise<void> {
  try {
    const file = await api().request('history/export', { id, format });
    downloadText(file.fileName, file.text, file.mimeType);
    statusNote.show(`Exported the ${WHAT[format]}: ${file.fileName}`);
  } catch (err) {
    statusNote.show(`Could not export the ${WHAT[format]}: ${errorText(err)}`, 'error');
  }
}
