/** A browser File, as far as common/ (no DOM types) needs to name it. */
export interface FileLike {
  readonly name: string;
  readonly size: number;
  readonly type: string;
}

/**
 * Where a file dropped on or pasted into the window lives on disk. The desktop app knows (its preload
 * exposes this as `window.workbenchFiles`); a browser does not, and says null.
 */
export interface FilePaths {
  pathOf(file: FileLike): string | null;
}
