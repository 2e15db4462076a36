// node --import this file: records every module URL Node loads into $PGW_TRACE_FILE, so the
// start-up tests can see which bundle chunks (and so which dependencies) a command loads.
import { register } from 'node:module';

register('./trace-hooks.mjs', import.meta.url);
