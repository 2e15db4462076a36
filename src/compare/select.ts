// Which steps of the scenario run (`--only`, `--read-only`) and what a step's answer gives the
// next ones: pure, as the scenario itself.
import { UsageError } from '../errors.js';
import { STEPS, type Step } from './scenario.js';

/** What `--only` takes: step names, a group (`bad`, `sandbox-only`) or a prefix (`link`, `link.*`). */
export function selectSteps(only: readonly string[] | undefined, readOnly: boolean): Step[] {
  let steps = [...STEPS];
  if (only && only.length > 0) {
    const wanted = only.map((w) => w.trim().replace(/\.\*$/, '')).filter(Boolean);
    const unknown = wanted.filter((w) => !STEPS.some((s) => matches(s, w)));
    if (unknown.length > 0) {
      throw new UsageError(`--only: unknown step ${unknown.map((u) => `"${u}"`).join(', ')}`, { suggestion: 'pgw sandbox compare --steps lists them (a name, a group such as bad, or a prefix such as link)' });
    }
    steps = steps.filter((s) => wanted.some((w) => matches(s, w)));
  }
  // Steps whose IDs come from a step left out still run when that step is in: order.get brings order.create.
  const names = new Set(steps.map((s) => s.name));
  const bring = (s: Step): void => {
    for (const id of s.uses ?? []) {
      const maker = STEPS.find((x) => x.captures && id in x.captures);
      if (maker && !names.has(maker.name)) {
        names.add(maker.name);
        bring(maker);
      }
    }
  };
  steps.forEach(bring);
  let chosen = STEPS.filter((s) => names.has(s.name));
  if (readOnly) chosen = chosen.filter((s) => isReadOnly(s));
  return chosen;
}

function matches(step: Step, wanted: string): boolean {
  return step.name === wanted || step.group === wanted || step.name.startsWith(`${wanted}.`);
}

/** A step that sends nothing but a GET, and needs nothing a write makes: what the MCP tool runs. */
export function isReadOnly(step: Step): boolean {
  return (step.uses ?? []).length === 0 && step.shown.startsWith('GET ');
}

/** The ID a capture names in a parsed body: the first of its paths that holds a non-empty string. */
export function capturedFrom(body: unknown, paths: readonly (readonly string[])[]): string | undefined {
  for (const path of paths) {
    let at: unknown = body;
    for (const key of path) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
    if (typeof at === 'string' && at !== '') return at;
  }
  return undefined;
}
