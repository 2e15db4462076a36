// Module wrappers compiled with their file (issue 23). esbuild wraps each bundled CommonJS module
// (commander, undici) and each lazily initialised ES module in a method: `__commonJS({"path"(
// exports, module) { ...the whole module... }})`. V8 compiles a method only when it is first
// called, so Node's compile cache, written when the file is compiled, never holds these bodies:
// every run parses commander's 85 kB again, and undici's 500 kB on every API call. Written as a
// parenthesised function instead, `{"path": (function(exports, module) { ... })}`, V8 compiles
// the body with the file (its heuristic for functions about to be called) and the compile cache
// keeps it; the functions inside stay lazy. The wrapper is called the same way (__commonJS and
// __esm take the object's first property), with the same arguments and `this`.
import ts from 'typescript';

const WRAPPERS = new Set(['__commonJS', '__esm']);

/** `text` with every wrapper method of a __commonJS/__esm call made a parenthesised function. */
export function eagerWrappers(text, fileName = 'chunk.js') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && WRAPPERS.has(node.expression.text)) {
      const [arg] = node.arguments;
      if (arg && ts.isObjectLiteralExpression(arg) && arg.properties.length === 1 && ts.isMethodDeclaration(arg.properties[0])) {
        const method = arg.properties[0];
        if (method.asteriskToken || method.modifiers?.length) throw new Error(`eager-wrappers: an unexpected wrapper in ${fileName}`);
        edits.push({ at: method.name.end, insert: ':(function' }, { at: method.end, insert: ')' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  edits.sort((a, b) => b.at - a.at);
  let out = text;
  for (const { at, insert } of edits) out = out.slice(0, at) + insert + out.slice(at);
  return out;
}
