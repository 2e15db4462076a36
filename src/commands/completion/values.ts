// What a flag's value or a positional argument can be, for completion. commander's own
// `.choices()` are read from the tree; this table adds the values that pgw checks itself (case
// rules, friendlier messages), so the two lists are kept here next to each other.
// Keys: "<path> <flag>" for one verb, "<flag>" for every verb that has the flag.
//
// `profiles` is live: the completion scripts ask `pgw __complete profiles` (a hidden command that
// reads only the profile file) each time, so a profile added a second ago is offered.

import { EVENT_TYPES } from '../../events.js';
import { LRS_PURPOSE_CODES } from '../../api/schemas/lrs-codes.js';
import { FIELD_CODES, SIMULATED_STATES, VERIFICATION_DOCUMENT_TYPES } from '../../api/schemas/verification.js';
import { SETTLEMENT_STATES } from '../../settlement-states.js';

export type Values = { words: string[] } | { dynamic: 'profiles' } | { files: true };

const MOPS = ['upi', 'credit_card', 'debit_card', 'net_banking', 'qr'];

export const FLAG_VALUES: Record<string, Values> = {
  '--profile': { dynamic: 'profiles' },
  '--mop': { words: MOPS },
  '--goods': { words: ['digital_goods', 'physical_goods', 'service'] },
  '--currency': { words: ['INR'] },
  'sub simulate --status': { words: ['SUCCESS', 'FAILED'] },
  'refund simulate --status': { words: ['INITIATED', 'PROCESSING', 'REFUNDED', 'FAILED', 'REVERSED', 'ON_HOLD', 'BANK_REJECTED_REFUND'] },
  '--api-version': { words: ['3.0.0', '2.0.0', '1.0.0'] },
  'vba list --status': { words: ['ACTIVE', 'INACTIVE'] },
  // vendor 11.3, uppercase as the gateway names them; pgw takes any case, and a comma-separated list.
  'payment list --settlement-status': { words: [...SETTLEMENT_STATES] },
  // vendor 11.6: the LRS codes the sandbox enables; pgw sends any code (a gateway may enable others).
  'lrs quote --purpose-code': { words: [...LRS_PURPOSE_CODES] },
  // vendor 11.2: the checklist codes, each offered with its `=` (code=value, code=<file>, code=<reason>).
  'payment verify --field': { words: FIELD_CODES.map((c) => `${c}=`) },
  'payment verify --document': { words: VERIFICATION_DOCUMENT_TYPES.map((c) => `${c}=`) },
  'payment verify --waive': { words: VERIFICATION_DOCUMENT_TYPES.map((c) => `${c}=`) },
};

export const POSITIONAL_VALUES: Record<string, Values[]> = {
  'profile use': [{ dynamic: 'profiles' }],
  'profile show': [{ dynamic: 'profiles' }],
  'profile remove': [{ dynamic: 'profiles' }],
  api: [{ words: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] }],
  // Uppercase as the gateway names them; pgw takes any case.
  trigger: [{ words: [...EVENT_TYPES] }],
  // 11.10 P2: the payment ID is free text; the status one of the review's.
  'sandbox verification': [{ words: [] }, { words: [...SIMULATED_STATES] }],
};

/** A value that names a file: the shell completes paths for it. */
export const FILE_VALUE = /<[^>]*(path|file|source)[^>]*>/;
