// `pgw merchant ...`: registered by program.ts; verbs are added here, each loading its file lazily.
import type { Command } from 'commander';
import type { Context } from '../../context.js';

export function registerMerchant(program: Command, ctx: Context): void {
  void program;
  void ctx;
}
