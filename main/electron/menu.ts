import type { MenuItemConstructorOptions } from 'electron';

/** The application menu with the usual roles; app-specific actions join it as features land. */
export function menuTemplate(platform: NodeJS.Platform, appName: string): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  return [
    ...(mac ? [{ label: appName, role: 'appMenu' as const }] : []),
    { label: 'File', role: 'fileMenu' },
    { label: 'Edit', role: 'editMenu' },
    { label: 'View', role: 'viewMenu' },
    { label: 'Window', role: 'windowMenu' },
    { label: 'Help', role: 'help', submenu: [{ label: `About ${appName}`, role: 'about' }] },
  ];
}
