// Timestamps: one short form for people on a terminal, the gateway's ISO text everywhere else.
// On a terminal every time is `YYYY-MM-DD HH:MM` in the machine's local zone (TZ sets it; docs/cli.md
// says so once); JSON and piped tables keep the gateway's value untouched.

const pad = (n: number): string => String(n).padStart(2, '0');

export function formatTime(iso: string | null | undefined, local: boolean): string | undefined {
  if (iso === null || iso === undefined || iso === '') return undefined;
  if (!local) return iso;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
