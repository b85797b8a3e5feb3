import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILE_COMMANDS, HELP_COMMANDS, menuTemplate, VIEW_COMMANDS } from './menu';

// The window runs a menu command as its palette's action of that id (renderer/app/app-commands.ts):
// each one must exist there, with the shortcut the menu shows. Read as text: the shell does not load the renderer.
const actionsSource = readFileSync(join(__dirname, '..', '..', 'renderer', 'palette', 'actions.ts'), 'utf8');

describe('the application menu’s commands', () => {
  for (const c of [...FILE_COMMANDS, ...VIEW_COMMANDS, ...HELP_COMMANDS]) {
    it(`“${c.label}” is the palette’s ${c.command}${c.accelerator ? `, ${c.accelerator}` : ''}`, () => {
      const at = actionsSource.indexOf(`id: '${c.command}'`);
      expect(at, `no palette action ${c.command}`).toBeGreaterThan(-1);
      if (c.accelerator) {
        const keys = c.accelerator.replace('CmdOrCtrl', 'Ctrl');
        expect(actionsSource.slice(at, at + 400)).toContain(`keys: '${keys}'`);
      }
    });
  }

  it('has Keyboard Shortcuts in Help, before About', () => {
    const help = menuTemplate('linux', 'ACP Workbench').find((m) => m.label === 'Help')!;
    expect((help.submenu as Array<{ label?: string; role?: string }>).map((i) => i.label ?? i.role)).toEqual(['Keyboard Shortcuts', undefined, 'About ACP Workbench']);
  });

  it('closes the window on macOS and quits elsewhere from File, with the app menu first on macOS', () => {
    const mac = menuTemplate('darwin', 'ACP Workbench');
    expect(mac[0]).toMatchObject({ label: 'ACP Workbench', role: 'appMenu' });
    expect((mac[1]!.submenu as Array<{ role?: string }>).at(-1)).toEqual({ role: 'close' });
    expect((menuTemplate('linux', 'ACP Workbench')[0]!.submenu as Array<{ role?: string }>).at(-1)).toEqual({ role: 'quit' });
  });
});
