import type { WebUtils } from 'electron';
import type { FilePaths } from '../common/api/file-paths';

/**
 * `window.workbenchFiles`: a dropped file's path, so the composer can link a file too big or not
 * text enough to embed (Electron gives File objects no path of their own since v32).
 */
export function createFilePaths(webUtils: Pick<WebUtils, 'getPathForFile'>): FilePaths {
  return {
    pathOf(file) {
      try {
        return webUtils.getPathForFile(file as File) || null; // '' for a file made in the page (a pasted image)
      } catch {
        return null;
      }
    },
  };
}
