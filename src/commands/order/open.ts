// Opening a page in the user's browser: open (macOS), start (Windows), xdg-open (elsewhere).
// Injectable, so tests never start a browser.
import { spawn } from 'node:child_process';

export type Opener = (target: string) => Promise<void>;

export function openerCommand(platform: NodeJS.Platform, target: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [target] };
  // `start` is a cmd built-in; its first quoted argument is a window title, hence the empty one.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', target] };
  return { command: 'xdg-open', args: [target] };
}

/** Starts the opener detached and resolves once it has started (or rejects when it cannot). */
export const openInBrowser: Opener = (target) =>
  new Promise((resolve, reject) => {
    const { command, args } = openerCommand(process.platform, target);
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
