// Electron main process entry (bundled to dist/main/electron-main.cjs; 'electron' stays external).
import * as electron from 'electron';
import { bundledLayout, startShell } from './app-shell';

startShell(electron, bundledLayout(__dirname));
