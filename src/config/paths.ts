// Where pgw keeps its files. Computed here (not by conf) so the sandbox and start-up path
// know the directory without loading conf.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function configDirFrom(env: Record<string, string | undefined>, platform = process.platform): string {
  if (env.PGW_CONFIG_DIR) return env.PGW_CONFIG_DIR;
  const home = env.HOME ?? homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'pgw');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'pgw', 'Config');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'pgw');
}

export function sandboxDbPath(configDir: string): string {
  return join(configDir, 'sandbox.db');
}
