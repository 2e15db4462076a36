// Timestamps: local time for people on a terminal, the gateway's ISO text everywhere else.

const pad = (n: number): string => String(n).padStart(2, '0');

export function formatTime(iso: string | null | undefined, local: boolean): string | undefined {
  if (iso === null || iso === undefined || iso === '') return undefined;
  if (!local) return iso;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const zone = `UTC${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())} ${zone}`;
}
