// node --import this file: appends to $PGW_STDIO_FILE the name of each process stream (stdin,
// stdout, stderr) the first time something reads it, so start-up tests can see which a command
// created (each costs ~2-4 ms on a pipe: net and the stream machinery).
import { appendFileSync } from 'node:fs';

const file = process.env.PGW_STDIO_FILE;
for (const name of ['stdin', 'stdout', 'stderr']) {
  const original = Object.getOwnPropertyDescriptor(process, name);
  let seen = false;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: original.enumerable,
    get() {
      if (!seen && file) appendFileSync(file, `${name}\n`);
      seen = true;
      return original.get.call(process);
    },
  });
}
