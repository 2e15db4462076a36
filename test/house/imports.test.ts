// The rules of the house (architecture.md, "Which way imports run"), read from the source so that
// they cannot quietly regress: a file that breaks one is named with the import that breaks it.
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph, type ImportGraph } from './import-graph.js';

const graph = importGraph();

/** What each floor must never import, as path prefixes under src/ ('api/' a folder, 'context.ts' a file). */
const NEVER: { floor: string; why: string; forbidden: string[]; except?: (target: string) => boolean }[] = [
  {
    floor: 'safety/',
    why: 'redaction and terminal-safe text serve both the HTTP core and the output layer: they import neither',
    forbidden: ['api/', 'output/', 'commands/', 'sandbox/', 'config/', 'context.ts', 'main.ts', 'program.ts', 'rails.ts', 'prompts.ts'],
  },
  {
    floor: 'api/',
    why: 'api never imports commands, output or sandbox',
    forbidden: ['commands/', 'output/', 'sandbox/', 'context.ts', 'main.ts', 'program.ts', 'rails.ts', 'prompts.ts'],
  },
  {
    floor: 'output/',
    why: 'output never imports api (nor the floors above it)',
    forbidden: ['api/', 'commands/', 'sandbox/', 'context.ts', 'main.ts', 'program.ts', 'rails.ts', 'prompts.ts'],
  },
  {
    floor: 'config/',
    why: 'the profile store sits below the context that uses it',
    forbidden: ['api/', 'commands/', 'output/', 'sandbox/', 'context.ts', 'main.ts', 'program.ts', 'rails.ts'],
  },
  {
    floor: 'sandbox/',
    why: 'sandbox → api schemas, money, settlement: never the CLI',
    forbidden: ['api/', 'commands/', 'output/', 'context.ts', 'main.ts', 'program.ts', 'rails.ts', 'prompts.ts'],
    // the shared request schemas, and the undici pool (webhook delivery), which imports nothing of pgw
    except: (target) => target.startsWith('api/schemas/') || target === 'api/agent.ts',
  },
];

export function breaches(g: ImportGraph): string[] {
  const out: string[] = [];
  for (const [from, targets] of g.edges) {
    for (const rule of NEVER) {
      if (!from.startsWith(rule.floor)) continue;
      for (const target of targets) {
        if (target.startsWith(rule.floor)) continue;
        if (rule.except?.(target)) continue;
        if (rule.forbidden.some((f) => (f.endsWith('/') ? target.startsWith(f) : target === f))) out.push(`src/${from} imports src/${target} (${rule.why})`);
      }
    }
  }
  return out.sort();
}

/**
 * Circles, apart from those inside one command group (commands/<noun>/): a verb's options type
 * declared next to its builder while the heavy half is loaded lazily stays within that noun.
 */
export function circlesAcrossFiles(g: ImportGraph): string[][] {
  const group = (f: string) => (f.startsWith('commands/') ? f.split('/').slice(0, 2).join('/') : undefined);
  return importCircles(g).filter((c) => !(group(c[0]!) !== undefined && c.every((f) => group(f) === group(c[0]!))));
}

describe('the house: which way imports run', () => {
  it('reads the imports of src/ (the scanner sees what it must)', () => {
    expect(graph.files.length).toBeGreaterThan(100);
    expect(graph.edges.get('context.ts')).toContain('output/guard.ts');
    // dynamic import() is read too: the embedded sandbox is started through one lazy import
    expect(graph.edges.get('context.ts')).toContain('sandbox/embedded.ts');
  });

  it('no floor imports a floor it must not', () => {
    expect(breaches(graph)).toEqual([]);
  });

  it('the output guard and the HTTP core share the ground floor (src/safety), not each other', () => {
    expect(graph.edges.get('output/guard.ts')!.filter((t) => t.startsWith('safety/')).length).toBeGreaterThan(0);
    expect(graph.edges.get('api/client.ts')).toContain('safety/terminal-text.ts');
    expect(graph.edges.get('output/dry-run.ts')!.some((t) => t.startsWith('api/'))).toBe(false);
  });

  it('there is no import circle (config/profiles.ts → context.ts → rails.ts → context.ts was one)', () => {
    expect(circlesAcrossFiles(graph)).toEqual([]);
  });

  it('the checks catch a breach and a circle when there is one', () => {
    const bad: ImportGraph = {
      files: ['output/guard.ts', 'api/redact.ts', 'context.ts', 'rails.ts', 'config/profiles.ts'],
      edges: new Map([
        ['output/guard.ts', ['api/redact.ts']],
        ['api/redact.ts', []],
        ['config/profiles.ts', ['context.ts']],
        ['context.ts', ['rails.ts']],
        ['rails.ts', ['context.ts']],
      ]),
    };
    expect(breaches(bad)).toEqual([
      'src/config/profiles.ts imports src/context.ts (the profile store sits below the context that uses it)',
      'src/output/guard.ts imports src/api/redact.ts (output never imports api (nor the floors above it))',
    ]);
    expect(circlesAcrossFiles(bad)).toEqual([['context.ts', 'rails.ts']]);
  });
});
