/**
 * Files for a drop or a paste, built in the page (the functions run there: Playwright sends their
 * source, so they use nothing from this module's scope).
 *   const dt = await page.evaluateHandle(filesTransfer, files); locator.dispatchEvent('drop', { dataTransfer: dt })
 *   locator.evaluate(pasteFiles, files)
 */
export interface TransferFile {
  name: string;
  type: string;
  text?: string;
  bytes?: number[];
}

interface PageGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  ClipboardEvent: new (type: string, init: { clipboardData: unknown; bubbles: boolean; cancelable: boolean }) => unknown;
}

export function filesTransfer(files: TransferFile[]): unknown {
  const g = globalThis as unknown as PageGlobals;
  const dt = new g.DataTransfer();
  for (const f of files) dt.items.add(new g.File([f.text ?? new Uint8Array(f.bytes ?? [])], f.name, { type: f.type }));
  return dt;
}

/** Pastes the files into `el` as a clipboard paste would. */
export function pasteFiles(el: unknown, files: TransferFile[]): void {
  const g = globalThis as unknown as PageGlobals;
  const dt = new g.DataTransfer();
  for (const f of files) dt.items.add(new g.File([f.text ?? new Uint8Array(f.bytes ?? [])], f.name, { type: f.type }));
  (el as { dispatchEvent(e: unknown): void }).dispatchEvent(new g.ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
}
