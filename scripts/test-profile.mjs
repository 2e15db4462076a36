// A vitest reporter for `npm test` (scripts/test.mjs): after the run, the wall time and the 20
// slowest test files, each with its wall time and its CPU time (test/helpers/cpu-setup.ts), and
// the suite's CPU total. The budget it serves is written in docs/cli.md ("The test suite's budget").
import { writeFileSync } from 'node:fs';

const SHOWN = 20;

export default class TestProfile {
  onInit() {
    this.started = performance.now();
  }

  onTestRunEnd(testModules) {
    const wall = (performance.now() - this.started) / 1000;
    const rows = testModules.map((m) => ({
      file: m.relativeModuleId,
      ms: m.diagnostic().duration + m.diagnostic().collectDuration + m.diagnostic().setupDuration,
      cpuMs: m.meta().cpuMs,
    }));
    const cpuTotal = rows.reduce((sum, r) => sum + (r.cpuMs ?? 0), 0) / 1000;
    rows.sort((a, b) => b.ms - a.ms);
    const s = (ms) => (ms === undefined ? '   -' : (ms / 1000).toFixed(1).padStart(6));
    const lines = [
      '',
      `test files: ${rows.length}; wall ${wall.toFixed(0)} s; CPU of the files ${cpuTotal.toFixed(0)} s (Node ${process.version})`,
      `the ${Math.min(SHOWN, rows.length)} slowest files (wall s, CPU s):`,
      ...rows.slice(0, SHOWN).map((r) => `${s(r.ms)} ${s(r.cpuMs)}  ${r.file}`),
      '',
    ];
    process.stdout.write(lines.join('\n'));
    // Every file's figures, to compare a change's before and after (docs/cli.md).
    if (process.env.PGW_TEST_PROFILE) writeFileSync(process.env.PGW_TEST_PROFILE, `${JSON.stringify({ node: process.version, wallS: wall, cpuS: cpuTotal, files: rows }, null, 1)}\n`);
  }
}
