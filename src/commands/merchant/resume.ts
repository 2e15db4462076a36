// --resume: which lines of the input were already created, from the results file of the earlier
// run. Matched by content hash (preferring the same line number), so a reformatted or reordered
// file still skips the right merchants, and a line edited after it was created is refused rather
// than silently skipped or created twice.
import { ValidationError } from '../../errors.js';
import type { ResultLine, PriorResults } from './results.js';

export interface PlannedEntry {
  n: number;
  hash: string;
}

export interface ResumePlan {
  /** line → the merchant created for it earlier (and the line it was on then). */
  done: Map<number, { id: string; from: number }>;
  /** line → the earlier attempt that may have reached the gateway: not sent again. */
  uncertain: Map<number, ResultLine>;
  /** Things to say on stderr before starting. */
  warnings: string[];
}

export function planResume(entries: PlannedEntry[], prior: PriorResults, resultsPath: string, unit: string): ResumePlan {
  const plan: ResumePlan = { done: new Map(), uncertain: new Map(), warnings: [] };
  const created = prior.lines.filter((r) => typeof r.id === 'string');
  const pool = new Map<string, ResultLine[]>();
  for (const r of created) pool.set(r.hash, [...(pool.get(r.hash) ?? []), r]);

  for (const e of entries) {
    const candidates = pool.get(e.hash);
    if (!candidates || candidates.length === 0) continue;
    const pick = candidates.find((r) => r.line === e.n) ?? candidates[0]!;
    candidates.splice(candidates.indexOf(pick), 1);
    plan.done.set(e.n, { id: pick.id!, from: pick.line });
  }

  const byLine = new Map(entries.map((e) => [e.n, e]));
  const problems: { path: string; message: string }[] = [];
  for (const r of [...pool.values()].flat()) {
    const now = byLine.get(r.line);
    if (now && !plan.done.has(r.line)) {
      problems.push({
        path: `${unit} ${r.line}`,
        message: `changed since it was created as merchant ${r.id} (${resultsPath}): change that merchant with pgw merchant update ${r.id}, or remove its record from ${resultsPath} to create this one anyway`,
      });
    } else {
      plan.warnings.push(`${resultsPath}: merchant ${r.id} (${unit} ${r.line}) was created earlier and is no longer in the input`);
    }
  }
  if (problems.length > 0) throw new ValidationError(problems, `--resume: ${problems.length} ${unit}s changed since they were created; nothing was sent`);

  // An attempt that may have reached the gateway is held back until someone checks (no duplicates).
  const createdHashes = new Set(created.map((r) => r.hash));
  for (const r of prior.lines) {
    if (!r.uncertain || createdHashes.has(r.hash)) continue;
    const e = entries.find((x) => x.hash === r.hash && !plan.done.has(x.n) && !plan.uncertain.has(x.n));
    if (e) plan.uncertain.set(e.n, r);
  }
  for (const n of prior.unreadable) plan.warnings.push(`${resultsPath}: line ${n} is not a result record and was ignored`);
  return plan;
}
