// The raw card number and CVV never reach stdout, stderr or any file pgw writes: a marker card
// goes through order create on every path (success, validation error, dry run, verbose, the
// 3-D Secure page, a gateway that quotes the card back) and is hunted for afterwards.
import { fakePrompter } from '../../helpers/fake-prompter.js';
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CARD_NUMBER, CVV, MASKED, cardJson, orderFlags, orderJson, useMock, useSandbox, useWorkspace } from './helpers.js';
import type { RunResult } from '../../helpers/run.js';

const ws = useWorkspace();
const sb = useSandbox(ws);
const mock = useMock(ws);

const CVV_TOKEN = new RegExp(`(?<![0-9])${CVV}(?![0-9])`);

function expectClean(r: RunResult): void {
  for (const [name, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const) {
    expect(text, name).not.toContain(CARD_NUMBER);
    expect(text, name).not.toMatch(CVV_TOKEN);
  }
}

/** Every file under the workspace except the card file the test wrote itself. */
function expectFilesClean(except: string): void {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  for (const path of walk(ws.dir).filter((p) => p !== except)) {
    const text = readFileSync(path).toString('latin1');
    expect(text, path).not.toContain(CARD_NUMBER);
  }
}

function cardArgs(card: Record<string, unknown> = cardJson()): { args: string[]; cardPath: string } {
  const cardPath = ws.file('card.json', card);
  return { cardPath, args: ['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'credit_card', '--card-file', cardPath] };
}

describe('the marker card never leaks', () => {
  it('success on a terminal and in JSON, with --verbose', async () => {
    const { args, cardPath } = cardArgs();
    const page = join(ws.dir, 'asked-3ds.html');
    const prompter = fakePrompter({ kind: 'select', message: '3-D Secure', answer: 'save' }, { kind: 'input', message: 'File', answer: page });
    const table = await sb.pgw([...args, '--verbose'], { tty: true, prompter });
    expect(table.code).toBe(0);
    expectClean(table);
    expect(readFileSync(page, 'utf8')).not.toMatch(CVV_TOKEN);
    // --verbose shows the request, masked to first 6 / last 4, without the CVV.
    expect(table.stderr).toContain(MASKED);
    expect(table.stderr).not.toContain('"cvv"');
    const json = await sb.pgw([...cardArgs().args, '--json', '--verbose']);
    expect(json.code).toBe(0);
    expectClean(json);
    expectFilesClean(cardPath);
  });

  it('--acs-out: the written page holds no card data', async () => {
    const { args, cardPath } = cardArgs();
    const out = join(ws.dir, '3ds.html');
    const r = await sb.pgw([...args, '--acs-out', out, '--verbose']);
    expect(r.code).toBe(0);
    expectClean(r);
    expect(readFileSync(out, 'utf8')).not.toMatch(CVV_TOKEN);
    expectFilesClean(cardPath);
  });

  it('--dry-run, table and JSON: masked number, no CVV', async () => {
    const { args, cardPath } = cardArgs();
    for (const output of [['-o', 'table'], ['--json']]) {
      const r = await sb.pgw([...args, '--dry-run', ...output]);
      expect(r.code).toBe(0);
      expectClean(r);
      expect(r.stdout).toContain(MASKED);
      expect(r.stdout).not.toContain('cvv');
    }
    expectFilesClean(cardPath);
  });

  it('validation errors: another field wrong, or the card itself wrong', async () => {
    const wrongAmount = await mock.pgw([...cardArgs().args, '--amount', '0', '-o', 'table']);
    expect(wrongAmount.code).toBe(2);
    expectClean(wrongAmount);
    const year = new Date().getUTCFullYear();
    for (const card of [cardJson({ expiry_year: String(year - 1) }), cardJson({ cvv: `${CVV}1` }), cardJson({ number: `${CARD_NUMBER}0000` })]) {
      for (const output of [['-o', 'table'], ['--json']]) {
        const r = await mock.pgw([...cardArgs(card).args, ...output, '--verbose']);
        expect(r.code).toBe(2);
        expectClean(r);
        expect(r.stdout + r.stderr).not.toContain(`${CARD_NUMBER}0000`);
      }
    }
  });

  it('a bad card file names the position, not the content', async () => {
    const cardPath = ws.file('card.json', `{"number": ${CARD_NUMBER}x, "cvv": "${CVV}"}`);
    const r = await mock.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'credit_card', '--card-file', cardPath, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--card-file');
    expectClean(r);
    const fromStdin = await mock.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'credit_card', '--card-file', '-'], { input: `x${CARD_NUMBER}` });
    expect(fromStdin.code).toBe(2);
    expectClean(fromStdin);
  });

  it('a gateway that quotes the card back in its error: scrubbed in the message, details and --verbose', async () => {
    const echo = {
      success: false,
      error: {
        code: 'ERR_CARD_001',
        message: `Card ${CARD_NUMBER} declined (cvv ${CVV})`,
        details: { card_details: { number: CARD_NUMBER, cvv: CVV }, reason: `card ${CARD_NUMBER} cvv ${CVV} refused` },
      },
    };
    for (const output of [['-o', 'table'], ['--json']]) {
      mock.reply('POST', '/pg/orders/', 400, echo);
      const r = await mock.pgw([...cardArgs().args, ...output, '--verbose']);
      expect(r.code).toBe(1);
      expectClean(r);
      expect(r.stderr).toContain('ERR_CARD_001');
      expect(r.stderr).toContain(MASKED);
    }
  });

  it('an acs_template that quotes the number is masked before it is written', async () => {
    const html = `<form action="https://acs.example/"><input name="pan" value="${CARD_NUMBER}"></form>`;
    mock.reply('POST', '/pg/orders/', 200, { success: true, message: 'S2S card payment request created', data: { order_id: 'OD9', acs_template: Buffer.from(html).toString('base64') } });
    const { args, cardPath } = cardArgs();
    const out = join(ws.dir, 'page.html');
    const r = await mock.pgw([...args, '--acs-out', out, '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('quoted card data or the secret: it was masked before writing');
    expect(readFileSync(out, 'utf8')).toContain(`value="${MASKED}"`);
    expectFilesClean(cardPath);
  });

  it('the flag route does not exist: --card-number and --cvv are unknown options', async () => {
    for (const flag of ['--card-number', '--cvv', '--card']) {
      const r = await mock.pgw(['order', 'create', flag, CARD_NUMBER]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`unknown option '${flag}'`);
      expectClean(r);
    }
  });

  it('a body file with card_details is masked in the dry run too', async () => {
    const body = ws.file('o.json', orderJson({ collection_mode: 's2s', mop_type: 'debit_card', card_details: cardJson() }));
    const r = await mock.pgw(['order', 'create', '--file', body, '--dry-run', '--json']);
    expect(r.code).toBe(0);
    expectClean(r);
  });
});
