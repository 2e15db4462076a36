// Start-up figures: pgw --version, --help, settle calc and payment get on the embedded default
// (the in-process sandbox), each against `node -e 0`, interleaved run by run; pgw mcp's answer to
// `initialize` and to its first `tools/list` against `pgw --help` (median of interleaved pairs,
// issue 43 item 6); and what the default tool list costs an agent: its tools and the characters
// of its tools/list answer against their budget (issue 43 item 1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { budgetFigure, figure, memoryRow, pairedFigure } from './stats.mjs';
import { PGW, cleanEnv, peakRssRun, timedRun } from './proc.mjs';

const NODE = process.execPath;
const BASELINE = [NODE, '-e', '0'];

export async function startupFigures(opts, log) {
  const configDir = mkdtempSync(join(tmpdir(), 'pgw-bench-startup-'));
  try {
    const env = cleanEnv({ PGW_CONFIG_DIR: configDir });
    // One captured payment in the embedded sandbox's own database (<config dir>/sandbox.db).
    const [paymentId] = JSON.parse(timedRun([NODE, PGW, 'sandbox', 'seed', '--payments', '1', '--json'], { env }).stdout);
    const commands = [
      { name: '`pgw --version` / `node -e 0`', short: 'pgw --version', argv: [NODE, PGW, '--version'], target: 1.3 },
      { name: '`pgw --help` / `node -e 0`', short: 'pgw --help', argv: [NODE, PGW, '--help'], target: 1.4 },
      {
        name: '`pgw settle calc` / `node -e 0`',
        short: 'pgw settle calc --payment 1000.00 --refund 100.00 --chargeback 50.00',
        argv: [NODE, PGW, 'settle', 'calc', '--payment', '1000.00', '--refund', '100.00', '--chargeback', '50.00'],
        target: 1.6,
      },
      {
        name: '`pgw payment get` on the embedded default / `node -e 0`',
        short: `pgw payment get ${paymentId} (embedded sandbox)`,
        argv: [NODE, PGW, 'payment', 'get', paymentId],
        target: 2.0,
      },
    ];
    // Warm the file cache (and the sandbox database) once; not counted.
    for (const c of commands) timedRun(c.argv, { env });
    timedRun(BASELINE, { env });

    log(`start-up: ${opts.runs} runs of each of ${commands.length} commands and the baseline`);
    const base = [];
    const times = commands.map(() => []);
    for (let r = 0; r < opts.runs; r++) {
      base.push(timedRun(BASELINE, { env }).ms);
      commands.forEach((c, i) => times[i].push(timedRun(c.argv, { env }).ms));
    }

    log(`start-up: ${opts.memoryRuns} memory runs of each`);
    const baseRss = [];
    const rss = commands.map(() => []);
    for (let r = 0; r < opts.memoryRuns; r++) {
      baseRss.push(peakRssRun(BASELINE, { env }));
      commands.forEach((c, i) => rss[i].push(peakRssRun(c.argv, { env })));
    }

    // pgw mcp: from start to its answer to an agent's `initialize`, and to its first `tools/list`
    // (stdin then closes, so the run ends once the answer is out), each beside a `pgw --help` on a
    // pipe: help, initialize, tools/list, run after run.
    const message = (m) => `${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`;
    const INITIALIZE = message({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
    const LIST = `${INITIALIZE}${message({ method: 'notifications/initialized' })}${message({ id: 2, method: 'tools/list' })}`;
    const mcp = [NODE, PGW, 'mcp'];
    const answer = timedRun(mcp, { env, input: INITIALIZE });
    if (!answer.stdout.includes('"protocolVersion"')) throw new Error(`pgw mcp did not answer initialize: ${answer.stdout.slice(0, 200)}`);
    const listed = JSON.parse(timedRun(mcp, { env, input: LIST }).stdout.trim().split('\n').find((l) => l.includes('"id":2')));
    const tools = listed.result.tools.length;
    const characters = JSON.stringify(listed.result).length;
    log(`start-up: ${opts.runs} runs of pgw mcp answering initialize, answering tools/list, and of pgw --help`);
    const helpTimes = [];
    const mcpTimes = [];
    const listTimes = [];
    for (let r = 0; r < opts.runs; r++) {
      helpTimes.push(timedRun(commands[1].argv, { env }).ms);
      mcpTimes.push(timedRun(mcp, { env, input: INITIALIZE }).ms);
      listTimes.push(timedRun(mcp, { env, input: LIST }).ms);
    }

    return {
      times: [
        ...commands.map((c, i) => figure(c.name, times[i], base, { unit: 'ms', target: c.target })),
        pairedFigure('`pgw mcp` answering `initialize` / `pgw --help`', mcpTimes, helpTimes, { unit: 'ms', target: 2.5 }),
        pairedFigure('`pgw mcp` answering its first `tools/list` / `pgw --help`', listTimes, helpTimes, { unit: 'ms', target: 3 }),
        budgetFigure('`pgw mcp` default list: tools / the budget of 40', tools, 40, 'tools'),
        budgetFigure('`pgw mcp` default list: characters of `tools/list` / the budget of 40,000', characters, 40_000, 'chars'),
      ],
      memory: commands.map((c, i) => memoryRow(c.short, rss[i], { label: '`node -e 0`', values: baseRss })),
    };
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
}
