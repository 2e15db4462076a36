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

/** How long an opener may run before pgw takes it as started (xdg-open waits for some browsers). */
const SETTLE_MS = 2000;

/**
 * Runs the opener and resolves once it has handed the page over: it exited 0, or it is still
 * running after a moment. Rejects when it cannot start or exits with a failure at once (xdg-open
 * with no browser or no display), so "opened" is never said of a page nobody opened.
 */
export function runOpener(command: string, args: string[], settleMs = SETTLE_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    const timer = setTimeout(() => {
      child.unref();
      resolve();
    }, settleMs);
    timer.unref();
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${signal ? `was stopped by ${signal}` : `exited with ${code}`}`));
    });
  });
}

export const openInBrowser: Opener = (target) => {
  const { command, args } = openerCommand(process.platform, target);
  return runOpener(command, args);
};
