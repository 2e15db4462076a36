// The events toolset: the sandbox's webhook delivery log (pgw's own sandbox only).
import * as z from 'zod';
import { EVENT_TYPES } from '../../events.js';
import { httpUrl } from '../../api/schemas/index.js';
import { id } from '../inputs.js';
import { tool } from '../tool.js';

export const eventTools = [
  tool({
    name: 'events_list',
    title: 'List webhook events',
    toolset: 'events',
    description: "The sandbox's events, newest first, with each address's attempts, last answer and next attempt.",
    command: 'pgw events list',
    effect: 'read',
    needs: 'pgw',
    input: z.object({
      type: z.enum(EVENT_TYPES).optional().describe('only this event type'),
      status: z.enum(['pending', 'delivered', 'failed', 'no_address']).optional(),
      about: z.string().min(1).optional().describe('only events whose body names this ID (payment, order, settlement, refund, merchant)'),
      limit: z.number().int().positive().max(1000).optional().describe('at most this many (default 50)'),
    }),
    async run(ctx, input) {
      const { runEventsList } = await import('../../commands/events/run.js');
      await runEventsList(ctx, { type: input.type, status: input.status, about: input.about, limit: input.limit === undefined ? undefined : String(input.limit) });
    },
  }),
  tool({
    name: 'events_get',
    title: 'Look up a webhook event',
    toolset: 'events',
    description: 'One event: its body exactly as sent (a JSON text; the signatures are over it), and every attempt with its signatures and answer.',
    command: 'pgw events get <id>',
    effect: 'read',
    needs: 'pgw',
    input: z.object({ event_id: id('event ID (EV…) or its sequence_number') }),
    // The body once: `--json` adds `payload`, the same body parsed, which an agent reads from `body`.
    result: async (_ctx, data) => {
      if (data === null || typeof data !== 'object' || Array.isArray(data)) return { data };
      const { payload: _parsed, ...event } = data as Record<string, unknown>;
      return { data: event };
    },
    async run(ctx, input) {
      const { runEventsGet } = await import('../../commands/events/run.js');
      await runEventsGet(ctx, { id: input.event_id });
    },
  }),
  tool({
    name: 'events_resend',
    title: 'Resend a webhook event',
    toolset: 'events',
    description: 'Send an event again, to its addresses or to another URL.',
    command: 'pgw events resend <id> [--to <url>]',
    effect: 'write',
    needs: 'pgw',
    input: z.object({ event_id: id('event ID (EV…) or its sequence_number'), to: httpUrl.optional().describe('send it here instead') }),
    async run(ctx, input, mode) {
      const { runEventsResend } = await import('../../commands/events/run.js');
      await runEventsResend(ctx, { id: input.event_id, to: input.to, dryRun: mode.dryRun });
    },
  }),
];
