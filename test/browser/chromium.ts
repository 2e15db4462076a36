// Debian's Chromium for the browser tests, through playwright-core (never a downloaded browser).
// The flags keep it off this machine's closed network (background networking, component
// updates, sync) and run it as root without a GPU.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
// CI installs it (.ci/run): there a missing browser is a failure, not a skipped test.
if (!chromiumAvailable && process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run should have installed it`);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
