// In a file of its own so the sandbox's store can read the LRS purpose codes without loading zod
// (a look-up on the embedded sandbox loads no zod: start-up cost, issue 23).
/** vendor 11.6 P3 / 11.2.1: the LRS purpose codes (education S0305, S1107; travel S0303, S0304, S0306). */
export const LRS_PURPOSE_CODES = ['S0305', 'S1107', 'S0303', 'S0304', 'S0306'] as const;
