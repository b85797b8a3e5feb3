/** The xterm.js chunk: a terminal with the fit addon, sized to its element. Loaded only by load-xterm.ts. */
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';

export interface LoginTerminal {
  terminal: Terminal;
  /** Fit to the element; returns the new size. */
  fit(): { cols: number; rows: number };
  dispose(): void;
}

export function createLoginTerminal(element: HTMLElement): LoginTerminal {
  const terminal = new Terminal({ convertEol: false, cursorBlink: true, fontSize: 13, scrollback: 2000 });
  const fitAddon = new FitAddon();
  terminal.loadAddon(fitAddon);
  terminal.open(element);
  const fit = () => {
    try {
      fitAddon.fit();
    } catch {
      // Not laid out yet (hidden element): keep the last size.
    }
    return { cols: terminal.cols, rows: terminal.rows };
  };
  fit();
  return { terminal, fit, dispose: () => terminal.dispose() };
}
