// --open says "opened" only when the opener took the page: a browser command that fails at once
// (xdg-open with no browser or display) is a failure the person is told about.
import { describe, expect, it } from 'vitest';
import { runOpener } from '../../../src/commands/order/open.js';

describe('runOpener', () => {
  it('an opener that exits 0 has opened the page', async () => {
    await expect(runOpener('true', [])).resolves.toBeUndefined();
  });

  it('an opener that exits with a failure at once is a failure', async () => {
    await expect(runOpener('false', [])).rejects.toThrow('false exited with 1');
  });

  it('an opener that cannot start is a failure', async () => {
    await expect(runOpener('/nonexistent/pgw-no-browser', [])).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('an opener still running after the settle time is taken as started', async () => {
    await expect(runOpener('sleep', ['2'], 50)).resolves.toBeUndefined();
  });
});
