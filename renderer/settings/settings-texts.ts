/** What each setting means, in the words the settings screen (and the new-session dialog) shows. */
import type { PermissionPolicyView, ThemeView } from '../../common/api/settings-types';

export const POLICY_TEXT: Record<PermissionPolicyView, { label: string; explanation: string }> = {
  ask: { label: 'Ask me', explanation: 'Every permission request waits for your answer.' },
  reads: { label: 'Allow reads, reject the rest', explanation: 'Read-only tool calls (read, search, fetch, think) are allowed without asking; everything else is rejected without asking.' },
  all: { label: 'Allow all', explanation: 'Everything is allowed without asking — except touching sensitive files (keys, .env…), which still asks you.' },
  none: { label: 'Reject all', explanation: 'Every permission request is rejected without asking.' },
};

export const POLICY_ORDER: PermissionPolicyView[] = ['ask', 'reads', 'all', 'none'];

/** The client capabilities advertised in `initialize`, by the settings path they live at. */
export const CAPABILITY_TEXT = [
  { key: 'readTextFile', path: 'fs.readTextFile', explanation: 'The agent may read files through the workbench (fs/read_text_file); reads are shown and recorded.' },
  { key: 'writeTextFile', path: 'fs.writeTextFile', explanation: 'The agent may write files through the workbench (fs/write_text_file); writes show as diffs you can undo.' },
  { key: 'terminal', path: 'terminal', explanation: 'The agent may run commands in terminals the workbench creates and shows (terminal/*).' },
  { key: 'authTerminal', path: 'auth.terminal', explanation: 'The agent may offer terminal logins: its login command runs in a terminal shown in the app (only where the app can open one; the CLI never offers them).' },
] as const;

export const THEME_TEXT: Record<ThemeView, string> = {
  system: 'Follow the system',
  light: 'Light',
  dark: 'Dark',
};
