// --verbose: each request and response as curl -v prints them (`>` sent, `<` received, `*` notes),
// one log call per line, always through redact.ts first.
import { redactBody, redactBodyText, redactHeaders, redactText } from '../safety/redact.js';
import { statusLine } from './errors.js';

export type LogLine = (line: string) => void;

export function logRequest(
  log: LogLine,
  secret: string | undefined,
  req: { method: string; url: string; headers: Record<string, string>; body?: unknown },
): void {
  log(`> ${req.method} ${redactText(req.url, secret)}`);
  for (const [name, value] of Object.entries(redactHeaders(req.headers, secret))) log(`> ${name}: ${value}`);
  if (req.body !== undefined) {
    for (const line of JSON.stringify(redactBody(req.body, secret), null, 2).split('\n')) log(`> ${line}`);
  }
}

export function logResponse(
  log: LogLine,
  secret: string | undefined,
  res: { status: number; ms: number; headers: Record<string, string>; text: string },
): void {
  log(`< ${statusLine(res.status)} (${res.ms} ms)`);
  for (const [name, value] of Object.entries(redactHeaders(res.headers, secret))) log(`< ${name}: ${value}`);
  const body = redactBodyText(res.text, secret);
  if (body !== '') for (const line of body.split('\n')) log(`< ${line}`);
}

export function logNote(log: LogLine, secret: string | undefined, note: string): void {
  log(`* ${redactText(note, secret)}`);
}
