// vendor 7.1 / C14: company_details.email and phone_number reach the gateway from `merchant create
// --file` (one merchant or a batch) and `merchant update` (--file, --set), checked before anything
// is sent: a bad value is exit 2 on one line naming the field, and no request is made.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { merchantBody, useSandbox } from './helpers.js';
import { runCli, tempConfigDir } from '../../helpers/run.js';

const sb = useSandbox();
const contact = { email: 'ops@acme.example', phone_number: '+919812345678' };
/** The seeded PSP's contact: what a sub-merchant created without one answers (docs/sandbox.md). */
const PSP_CONTACT = { email: 'partners@demo-psp.example', phone_number: '+912240000002' };

async function detailsOf(id: string) {
  return (await sb.h.call('GET', `/partners/merchants/${id}/`, { as: 'psp' })).body.data;
}

describe('the contact reaches the sandbox', () => {
  it('merchant create --file: sent, kept, and read back (company_details and the client keys)', async () => {
    const body = merchantBody('Contact One', { company: contact });
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('one.json', JSON.stringify(body)), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created.company_details).toMatchObject(contact);
    const got = await detailsOf(created.id);
    expect(got.company_details).toMatchObject(contact);
    expect(got.contact).toEqual(contact);
  });

  it('--dry-run shows them in the body it would send', async () => {
    const body = merchantBody('Contact Dry', { company: contact });
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('dry.json', JSON.stringify(body)), '--dry-run', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"email": "ops@acme.example"');
    expect(r.stdout).toContain('"phone_number": "+919812345678"');
  });

  it('a batch (JSON Lines) sends each line with its own contact', async () => {
    const lines = [
      merchantBody('Contact Bulk A', { company: { email: 'a@acme.example' } }),
      merchantBody('Contact Bulk B', { company: { phone_number: '+14155550100' } }),
    ];
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('bulk.jsonl', lines.map((l) => JSON.stringify(l)).join('\n')), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(r.stdout) as { id: string; status: string }[];
    expect(results.map((x) => x.status)).toEqual(['created', 'created']);
    // Each field not sent answers the PSP's (the docs require both).
    expect((await detailsOf(results[0]!.id)).contact).toEqual({ email: 'a@acme.example', phone_number: PSP_CONTACT.phone_number });
    expect((await detailsOf(results[1]!.id)).contact).toEqual({ email: PSP_CONTACT.email, phone_number: '+14155550100' });
  });

  it('merchant update --set company_details.email / phone_number, and --file', async () => {
    const created = JSON.parse((await sb.pgw(['merchant', 'create', '--file', sb.file('u.json', JSON.stringify(merchantBody('Contact Upd'))), '--json'])).stdout);
    const set = await sb.pgw(['merchant', 'update', created.id, '--set', 'company_details.email=new@acme.example', '--set', 'company_details.phone_number=+919800000001', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect((await detailsOf(created.id)).contact).toEqual({ email: 'new@acme.example', phone_number: '+919800000001' });
    const file = await sb.pgw(['merchant', 'update', created.id, '--file', sb.file('u2.json', JSON.stringify({ company_details: { email: 'third@acme.example' } })), '--json']);
    expect(file.code, file.stderr).toBe(0);
    expect((await detailsOf(created.id)).contact.email).toBe('third@acme.example');
  });
});

describe('a bad contact is refused before sending (exit 2, one line, nothing sent)', () => {
  let agent: MockAgent;
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => {
    // No interceptor: any request would fail the run with another exit code.
    agent = new MockAgent();
    agent.disableNetConnect();
    tmp = tempConfigDir();
  });
  afterEach(async () => {
    await agent.close();
    tmp.cleanup();
  });

  const env = () => ({ PGW_CONFIG_DIR: tmp.dir, PGW_BASE_URL: 'https://gw.test', PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sekret-contact-01' });

  async function refused(argv: string[], input?: string) {
    const r = await runCli(argv, { dispatcher: agent, input, env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    return r.stderr;
  }

  it.each([
    [{ email: 'not-an-email' }, 'company_details.email: must be an email address'],
    [{ phone_number: '98123 45678' }, 'company_details.phone_number: must be an E.164 number'],
    [{ email: 42 }, 'company_details.email: must be an email address'],
  ])('create --file %j', async (company, message) => {
    const stderr = await refused(['merchant', 'create', '--file', '-', '-o', 'table'], JSON.stringify(merchantBody('Bad', { company })));
    expect(stderr.split('\n')[0]).toContain(message);
    expect(stderr.trim().split('\n').filter((l) => !l.startsWith('hint:'))).toHaveLength(1);
  });

  it('a misspelt contact key is unknown, with a "did you mean"', async () => {
    const body = merchantBody('Bad');
    body.company_details.emial = 'ops@acme.example';
    expect(await refused(['merchant', 'create', '--file', '-'], JSON.stringify(body))).toContain('company_details.emial: unknown field (did you mean email?)');
  });

  it('one bad line of a batch stops the whole batch before anything is sent', async () => {
    const lines = [merchantBody('Good'), merchantBody('Bad', { company: { email: 'nope' } })].map((l) => JSON.stringify(l)).join('\n');
    const stderr = await refused(['merchant', 'create', '--file', '-', '--json'], lines);
    expect(stderr).toContain('company_details.email');
  });

  it('merchant update --set company_details.email=bad', async () => {
    const stderr = await refused(['merchant', 'update', '1234567890', '--set', 'company_details.email=bad']);
    expect(stderr).toContain('company_details.email: must be an email address');
  });
});

describe('merchant create and get show the contact', () => {
  it("create shows them in its table; without them, the sandbox's stand-ins (the PSP's contact)", async () => {
    const withContact = await sb.pgw(['merchant', 'create', '--file', sb.file('c1.json', JSON.stringify(merchantBody('Contact Table', { company: contact }))), '-o', 'table']);
    expect(withContact.code, withContact.stderr).toBe(0);
    expect(withContact.stdout).toMatch(/email\s+ops@acme\.example/);
    expect(withContact.stdout).toMatch(/phone\s+\+919812345678/);
    const without = await sb.pgw(['merchant', 'create', '--file', sb.file('c2.json', JSON.stringify(merchantBody('Contact None'))), '-o', 'table']);
    expect(without.code, without.stderr).toBe(0);
    expect(without.stdout).toMatch(/email\s+partners@demo-psp\.example/);
    expect(without.stdout).toMatch(/phone\s+\+912240000002/);
  });

  it('email and phone rows in the detail view', async () => {
    const body = merchantBody('Contact Shown', { company: contact });
    const created = JSON.parse((await sb.pgw(['merchant', 'create', '--file', sb.file('shown.json', JSON.stringify(body)), '--json'])).stdout);
    const r = await sb.pgw(['merchant', 'get', created.id, '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/email\s+ops@acme\.example/);
    expect(r.stdout).toMatch(/phone\s+\+919812345678/);
  });
});
