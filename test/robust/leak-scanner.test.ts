// The leak scanner itself: it must find each marker wherever pgw could put it (so a clean scan
// means something), and must not see the 3-digit CVV in the numbers that legitimately fill output.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CARD, CVV, ENCRYPTION_KEY, SECRET, leaksInFile, leaksInText, scanDirs } from './helpers-leak.js';
import { openRaw } from '../helpers/sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-leak-scanner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const markers = (text: string) => leaksInText('t', text).map((l) => l.marker);

describe('leak scanner', () => {
  it('finds the markers in printed text, in any of the forms a leak takes', () => {
    expect(markers(`X-Client-Secret: ${SECRET}`)).toEqual(['secret']);
    expect(markers(`Unexpected token 's', ..."t_secret":${SECRET.slice(0, 10)}"... is not valid JSON`)).toEqual(['secret']);
    expect(markers(`client_secret ••••${SECRET.slice(-4)}`)).toEqual([]);
    expect(markers(`X-Webhook-Key: ${ENCRYPTION_KEY}`)).toEqual(['key']);
    expect(markers(`signed with ${ENCRYPTION_KEY.slice(3, 12)}…`)).toEqual(['key']);
    expect(markers(`encryption_key ••••${ENCRYPTION_KEY.slice(-4)}`)).toEqual([]);
    expect(markers(`card ${CARD} declined`)).toEqual(['card']);
    expect(markers('card 4000 0012 3456 7899')).toEqual(['card']);
    expect(markers('card 4000-0012-3456-7899')).toEqual(['card']);
    // Issue 44 item 9: no-break and thin spaces, dots, full-width digits.
    expect(markers('card 4000\u00a00012\u20093456.7899')).toEqual(['card']);
    expect(markers(`card ${CARD.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))}`)).toEqual(['card']);
    for (const text of [`"cvv": "${CVV}"`, `cvv=${CVV}`, `CVC ${CVV}`, `"cvv2":${CVV}`]) expect(markers(text), text).toContain('cvv');
    for (const text of [`declined (code ${CVV})`, `"${CVV}"`, `security code ${CVV}, try again`]) expect(markers(text), text).toEqual(['cvv']);
  });

  it('does not take IDs, timestamps, amounts, tokens or timings for the CVV', () => {
    const benign = [
      'PR0000007390 OD17391234 ST1739000000',
      '2026-06-15T12:07:39.739123Z',
      'amount 1739.00, fee 86.95, 7.39',
      'sess_a739f0 3f2e739c-1d2b-4c3d-8e9f-0a1b2c3d4e5f dG739+/=',
      '< 200 OK (739 ms)',
      '* gateway answered 503: retry 1 of 3 in 739 ms',
      'http://127.0.0.1:57390/pg/orders/',
    ];
    for (const text of benign) expect(markers(text), text).toEqual([]);
  });

  it('allows the secret only as the profile file\'s client_secret, and reads SQLite pages and cells', () => {
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ current: 'x', profiles: { x: { client_id: 'c', client_secret: SECRET } } }, null, 2));
    expect(leaksInFile(config)).toEqual([]);
    writeFileSync(config, JSON.stringify({ profiles: { x: { client_secret: SECRET, note: SECRET } } }));
    expect(leaksInFile(config).map((l) => l.marker)).toEqual(['secret']);
    // The Encryption Key likewise: only as the profile's own encryption_key.
    writeFileSync(config, JSON.stringify({ profiles: { x: { client_secret: SECRET, encryption_key: ENCRYPTION_KEY } } }, null, 2));
    expect(leaksInFile(config)).toEqual([]);
    writeFileSync(config, JSON.stringify({ profiles: { x: { encryption_key: ENCRYPTION_KEY, last_error: `bad signature with ${ENCRYPTION_KEY}` } } }));
    expect(leaksInFile(config).map((l) => l.marker)).toEqual(['key']);

    const dbPath = join(dir, 'store.db');
    const db = openRaw(dbPath);
    db.exec('CREATE TABLE cards (id INTEGER PRIMARY KEY, cvv INTEGER, code TEXT, payload TEXT)');
    db.prepare('INSERT INTO cards (cvv, code, payload) VALUES (?, ?, ?)').run(Number(CVV), CVV, JSON.stringify({ number: CARD }));
    db.close();
    const found = leaksInFile(dbPath).map((l) => `${l.marker} ${l.where.split(' ')[1] ?? 'file'}`);
    expect(found).toEqual(expect.arrayContaining(['card file', 'cvv cards.cvv', 'cvv cards.code', 'card cards.payload']));
    expect(scanDirs([dir]).files.length).toBeGreaterThanOrEqual(2);
  });
});
