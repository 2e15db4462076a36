// Examples for the verbs whose builder declares none. A verb declares its own with
// `.addHelpText('after', '\nExamples:\n  pgw ...')` (the usual way, and the one that wins); this
// table fills in the rest, so `pgw <noun> <verb> --help` always ends with something to copy.
// Keyed by the command's path below `pgw`.

export const EXAMPLES: Record<string, string[]> = {
  'payment get': [
    'pgw payment get PR0000000001',
    'pgw payment get PR0000000001 PR0000000002 --json',
    'pgw payment get - < payment-ids.txt',
    "pgw payment get PR0000000001 --query 'settlement.id'",
  ],
  'link get': ['pgw link get PR0000000001', 'pgw link get --from-file links.txt -o table'],
  'settle get': ['pgw settle get ST0000000001', 'pgw settle get ST0000000001 --json'],
  'settle mark': [
    'pgw settle mark PR0000000001 PR0000000002',
    'pgw settle mark PR0000000001 --refund RF0000000001',
    'pgw settle mark PR0000000001 --refund RF0000000001=100.00 --dry-run',
  ],
  'settle calc': ['pgw settle calc --payment 1000 --refund 100 --chargeback 50', 'pgw settle calc --payment 1500 --payment 250.50 --json'],
  'sub simulate': ['pgw sub simulate SUB123 --status SUCCESS', 'pgw sub simulate SUB123 --status FAILED --payment-id PR0000000001'],
  'merchant list': ['pgw merchant list', 'pgw merchant list --all --json > merchants.json'],
  'profile list': ['pgw profile list', 'pgw profile list --json'],
  'profile use': ['pgw profile use staging'],
  'profile show': ['pgw profile show', 'pgw profile show staging --json'],
  'profile remove': ['pgw profile remove staging', 'pgw profile remove staging --yes'],
  'sandbox serve': ['pgw sandbox serve', 'pgw sandbox serve --port 0 --json', 'pgw sandbox serve --quiet --db /tmp/team.db'],
  'sandbox pay': ['pgw sandbox pay OD12345678901234', 'pgw sandbox pay OD12345678901234 --fail', 'pgw sandbox pay OD12345678901234 --mop credit_card'],
  'sandbox refund': ['pgw sandbox refund PR0000000001 --amount 100.00'],
  'sandbox chargeback': ['pgw sandbox chargeback PR0000000001 --amount 50.00'],
  'sandbox link create': ['pgw sandbox link create --order OD12345678901234', 'pgw sandbox link create --order OD12345678901234 --expires-in 30m'],
  'sandbox link deactivate': ['pgw sandbox link deactivate PR0000000001'],
  'sandbox subscription create': ['pgw sandbox subscription create --amount 499.00'],
  'sandbox webhook add': ['pgw sandbox webhook add http://127.0.0.1:8080/hooks'],
  'sandbox seed': ['pgw sandbox seed', 'pgw sandbox seed --payments 1000 > ids.txt'],
  'sandbox reset': ['pgw sandbox reset', 'pgw sandbox reset --yes'],
  help: ['pgw help payment get', 'pgw help sandbox'],
};
