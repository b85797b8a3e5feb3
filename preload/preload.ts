// The sandboxed preload (bundled to CommonJS): exposes the API contract as window.workbench.
import { contextBridge, ipcRenderer } from 'electron';
import { createWorkbenchBridge } from './workbench-bridge';

contextBridge.exposeInMainWorld('workbench', createWorkbenchBridge(ipcRenderer));
