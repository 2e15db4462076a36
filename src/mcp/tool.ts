// What a tool of `pgw mcp` is: one command verb, its input (from the shared request schemas), what
// it does to the gateway, and the runner it calls. The annotations every tool carries are derived
// here from those facts, never written by hand per tool, so a write can never claim to be read-only.
import type { z } from 'zod';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { FileDigests } from '../files/digests.js';

export const TOOLSETS = ['orders', 'payments', 'refunds', 'links', 'settlements', 'merchants', 'compliance', 'events', 'sandbox'] as const;
export type Toolset = (typeof TOOLSETS)[number];
/** `--toolsets` also takes these: `all` (every tool) and `default` (the list offered without the flag). */
export const TOOLSET_WORDS = ['all', 'default'] as const;

/**
 * Where a tool can run: `any` gateway; a `sandbox` (any non-production profile: the vendor's UAT
 * answers these too); or only `pgw` — pgw's own sandbox, whose clock, snapshots, faults and
 * delivery log no other gateway has.
 */
export type Needs = 'any' | 'sandbox' | 'pgw';

export interface ToolSpec<S extends z.ZodObject = z.ZodObject> {
  /** noun_verb, as the command line reads: `pgw payment get` → payment_get. */
  name: string;
  title: string;
  toolset: Toolset;
  /** What it does, for the agent: one or two sentences; the command it is says the rest. */
  description: string;
  /** The command line it is, for people reading the list (`pgw payment get <payment_id…>`). */
  command: string;
  /**
   * read: only looks (GET, or no network at all); write: sends a POST/PATCH/PUT/DELETE or changes
   * the sandbox. Every write on production is two-step (confirm.ts).
   */
  effect: 'read' | 'write';
  needs: Needs;
  /** A write that changes or removes what exists (not only adds): MCP's destructiveHint. */
  destructive?: boolean;
  /** The same call twice has no more effect than once: MCP's idempotentHint (reads always are). */
  idempotent?: boolean;
  /** Never reaches a gateway (settle_calc): openWorldHint false on every profile. */
  offline?: boolean;
  /**
   * Not in the default list (catalog.ts): offered when its toolset is named, or with `all`. The
   * default list is what every agent pays for in tokens before its first call (issue 43).
   */
  extra?: boolean;
  input: S;
  /**
   * Flags of the command whose argument has another name (`--document` → `documents`): errors
   * and hints name the argument (wording.ts). A flag named as its argument needs no entry.
   */
  flags?: Record<string, string>;
  /** An input that works on a fresh embedded sandbox after the tools before it (docs, tests). */
  example?: Record<string, unknown>;
  /**
   * Every value the runner would generate or compute for the request (a reference_id, an expiry
   * from a duration), fixed before the run: a two-step call's preview shows them and its token
   * sends them as shown (issue 43 item 3). `notes` say what was filled in.
   */
  fix?(ctx: Context, input: z.output<S>): Promise<{ input: z.output<S>; notes?: string[] }>;
  /** The result as an agent gets it, when it differs from the --json data (said in the tool's description). */
  result?(ctx: Context, data: unknown): Promise<{ data: unknown; notes?: string[] }>;
  /**
   * Runs the verb's runner on a context whose output is JSON (invoke.ts reads it back). A write
   * runs with `dryRun` for the preview of a two-step production call: nothing is sent.
   */
  run(ctx: Context, input: z.output<S>, mode: RunMode): Promise<void>;
  /** A body the runner reads as `--file -`: given to it on stdin, as JSON. */
  stdin?(input: z.output<S>): unknown;
  /**
   * More for the preview of a two-step call than the request itself: merchant_update reads the
   * sub-merchant and shows each field current → new, as `pgw merchant update` asks a person.
   */
  preview?(ctx: Context, input: z.output<S>): Promise<Record<string, unknown>>;
}

export interface RunMode {
  dryRun: boolean;
  /** The files a write uploads: recorded by a preview, checked by the send (files/digests.ts). */
  digests?: FileDigests;
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * MCP's hints (spec 2025-06-18, "Tool annotations"). destructive and idempotent mean something for
 * writes only; reads get false and true, so every tool carries all four. openWorld: false on the
 * embedded sandbox (a closed world on this machine), true for any gateway reached over the network.
 */
export function annotationsOf(tool: ToolSpec, embedded: boolean): ToolAnnotations {
  const read = tool.effect === 'read';
  return {
    title: tool.title,
    readOnlyHint: read,
    destructiveHint: read ? false : tool.destructive === true,
    idempotentHint: read ? true : tool.idempotent === true,
    openWorldHint: tool.offline === true ? false : !embedded,
  };
}

/** Typed on its own input: the runner sees the schema's output type. */
export function tool<S extends z.ZodObject>(spec: ToolSpec<S>): ToolSpec {
  return spec as unknown as ToolSpec;
}

/** What the profile is, as the rails see it (rails.ts isProduction / isOwnSandbox). */
export interface Gateway {
  production: boolean;
  /** pgw's own sandbox: the embedded one, or a `pgw sandbox serve`. */
  pgwSandbox: boolean;
  /** In this process: openWorldHint false. */
  embedded: boolean;
}

export type ToolsetChoice = Toolset | (typeof TOOLSET_WORDS)[number];

/** `--toolsets orders,payments`: names checked, one line naming a wrong one and the choices. */
export function parseToolsets(value: string | undefined): ToolsetChoice[] | undefined {
  if (value === undefined) return undefined;
  const known: readonly string[] = [...TOOLSETS, ...TOOLSET_WORDS];
  const choices = `${TOOLSETS.join(', ')}; or ${TOOLSET_WORDS.join(', ')}`;
  const names = value.split(/[\s,]+/).filter(Boolean).map((n) => n.toLowerCase());
  const wrong = names.filter((n) => !known.includes(n));
  if (wrong.length > 0) throw new UsageError(`--toolsets: unknown toolset ${wrong.map((w) => `"${w}"`).join(', ')}: choose from ${choices}`);
  if (names.length === 0) throw new UsageError(`--toolsets: give at least one of ${choices}`);
  return names as ToolsetChoice[];
}

/** The argument a two-step write takes on its second call. */
export const TOKEN_ARGUMENT = 'confirmation_token';

/** A write on production runs in two steps: a preview with a token, then the call with it. */
export function isTwoStep(tool: ToolSpec, gateway: Gateway): boolean {
  return tool.effect === 'write' && gateway.production;
}
