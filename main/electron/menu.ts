import type { BaseWindow, MenuItemConstructorOptions } from 'electron';

/**
 * The application menu: the app's own commands where a desktop user looks for them (File, View),
 * then the usual roles. A command item names an action of the window's command palette
 * (renderer/palette/actions.ts); its click goes to the focused window (`onCommand`), which runs it
 * as the palette would. Their shortcuts are shown but not registered here: the window's own
 * keyboard handling runs them (registered, the menu would take the key before the page does, and a
 * dialog's own keys would lose it).
 */
export interface MenuCommand {
  /** The palette action's id. */
  command: string;
  label: string;
  accelerator?: string;
}

export const FILE_COMMANDS: readonly MenuCommand[] = [
  { command: 'session.new', label: 'New Session…', accelerator: 'CmdOrCtrl+N' },
  { command: 'compare.new', label: 'New Compare Run…' },
  { command: 'session.rename', label: 'Rename Session…', accelerator: 'F2' },
  { command: 'history.open', label: 'History', accelerator: 'CmdOrCtrl+H' },
  { command: 'agents.open', label: 'Agents' },
  { command: 'settings.open', label: 'Settings…', accelerator: 'CmdOrCtrl+,' },
];

export const VIEW_COMMANDS: readonly MenuCommand[] = [
  { command: 'palette.open', label: 'Command Palette…', accelerator: 'CmdOrCtrl+Shift+P' },
  { command: 'view.sidebar', label: 'Toggle Sidebar', accelerator: 'CmdOrCtrl+B' },
  { command: 'find.open', label: 'Find in Transcript…', accelerator: 'CmdOrCtrl+F' },
  { command: 'inspector.toggle', label: 'Toggle Protocol Inspector' },
  { command: 'changes.toggle', label: 'Toggle Changes Panel' },
];

export const HELP_COMMANDS: readonly MenuCommand[] = [{ command: 'help.shortcuts', label: 'Keyboard Shortcuts', accelerator: 'CmdOrCtrl+/' }];

export function menuTemplate(platform: NodeJS.Platform, appName: string, onCommand: (command: string, window: BaseWindow | undefined) => void = () => undefined): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const item = (c: MenuCommand): MenuItemConstructorOptions => ({
    label: c.label,
    ...(c.accelerator ? { accelerator: c.accelerator, registerAccelerator: false } : {}),
    click: (_item, window) => onCommand(c.command, window),
  });
  return [
    ...(mac ? [{ label: appName, role: 'appMenu' as const }] : []),
    { label: 'File', submenu: [...FILE_COMMANDS.map(item), { type: 'separator' }, mac ? { role: 'close' } : { role: 'quit' }] },
    { label: 'Edit', role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...VIEW_COMMANDS.map(item),
        { type: 'separator' },
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { label: 'Window', role: 'windowMenu' },
    { label: 'Help', role: 'help', submenu: [...HELP_COMMANDS.map(item), { type: 'separator' }, { label: `About ${appName}`, role: 'about' }] },
  ];
}
