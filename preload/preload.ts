// The sandboxed preload (bundled to CommonJS): exposes the API contract as window.workbench, and
// where dropped files live as window.workbenchFiles.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createFilePaths } from './file-paths';
import { createWorkbenchBridge } from './workbench-bridge';

contextBridge.exposeInMainWorld('workbench', createWorkbenchBridge(ipcRenderer));
contextBridge.exposeInMainWorld('workbenchFiles', createFilePaths(webUtils));
