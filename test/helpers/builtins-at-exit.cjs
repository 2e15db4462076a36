// node --require this file: at exit, writes the built-in modules Node loaded (required or
// imported, Node's own included) into $PGW_TRACE_FILE, one name a line.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const names = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  writeFileSync(process.env.PGW_TRACE_FILE, `${names.join('\n')}\n`);
});
