// Every test file names itself to the parity trace (src/sandbox/parity-trace.ts): a sandbox this
// file's tests answer, in this process or in a pgw it starts, writes the name on each trace line.
import { relative } from 'node:path';
import { expect } from 'vitest';

const path = expect.getState().testPath;
if (path && process.env.PGW_PARITY_TRACE) process.env.PGW_PARITY_TEST = relative(process.cwd(), path);
