// The command line's words in what a tool says, made the agent's (issue 43 item 2): an agent
// changes arguments and calls tools; it has no flags and no terminal. A flag the tool has as an
// argument becomes that argument (`--reference-id` → `reference_id`, `--document invoice=a.pdf` →
// `documents.invoice`), and a command this server offers as a tool becomes the tool
// (`pgw payment list --reference-id X` → `payment_list reference_id X`).
import type { ToolSpec } from './tool.js';

/** `--flag`, `--flag code=value` or `--flag code` (a problem's path), where a flag's argument is a record keyed by code. */
const FLAG = /--([a-z][a-z-]*)(?: ([A-Za-z0-9_]+)(?:=[^\s:;,)]*)?)?/g;

/** A switch (`--again`, `--allow-duplicates`) is a boolean argument: said as `again: true`. */
function isSwitch(schema: unknown): boolean {
  const def = (schema as { _zod?: { def?: { type?: string; innerType?: unknown } } })._zod?.def;
  if (def?.type === 'optional' || def?.type === 'default') return isSwitch(def.innerType);
  return def?.type === 'boolean';
}

/** The argument a flag sets on `tool`, when it has one. */
function argumentOf(flag: string, tool: ToolSpec): string | undefined {
  const mapped = tool.flags?.[`--${flag}`];
  if (mapped !== undefined) return mapped;
  const key = flag.replace(/-/g, '_');
  if (!Object.hasOwn(tool.input.shape, key)) return undefined;
  return isSwitch(tool.input.shape[key]) ? `${key}: true` : key;
}

/** Flags `tool` has as arguments, by their argument names. */
export function inArgumentNames(text: string, tool: ToolSpec): string {
  return text.replace(FLAG, (whole, flag: string, code: string | undefined) => {
    const arg = argumentOf(flag, tool);
    if (arg === undefined) return whole;
    if (code === undefined) return arg;
    return tool.flags?.[`--${flag}`] !== undefined ? `${arg}.${code}` : `${arg} ${code}`;
  });
}

/** The words of a command (`pgw sandbox clock advance`): its line up to the first operand or flag. */
function commandWords(tool: ToolSpec): string {
  return tool.command.split(/\s+[<[\-']/)[0]!.trim();
}

/**
 * A command named in the text (`pgw payment list --reference-id X`) as the offered tool it is,
 * its flags as that tool's arguments; the command line's words left where no tool answers.
 */
function inToolNames(text: string, offered: readonly ToolSpec[]): string {
  const byWords = offered.map((t) => ({ tool: t, words: commandWords(t) })).sort((a, b) => b.words.length - a.words.length);
  return text.replace(/pgw (?:-p [^\s]+ )?([a-z][a-z ]*[a-z])([^;`'()\n]*)/g, (whole, words: string, rest: string) => {
    const hit = byWords.find((c) => `pgw ${words} `.startsWith(`${c.words} `));
    if (hit === undefined) return whole;
    const operands = words.slice(hit.words.length - 'pgw '.length).trim();
    return `${hit.tool.name}${operands ? ` ${operands}` : ''}${inArgumentNames(rest, hit.tool)}`;
  });
}

export function forToolCall(text: string, tool: ToolSpec, offered: readonly ToolSpec[]): string {
  return inArgumentNames(inToolNames(text, offered), tool);
}
