// Fewer modules on the hot paths (issue 23). esbuild's code splitting makes one chunk per set of
// entry points (main.js and every `import()` target) that share code, so `pgw --help` loads 15
// modules and `pgw settle calc` 23, although main.js always runs first and every verb file is
// imported only once the command tree (program.ts) is loaded. Each ES module costs Node a
// resolution, a package-scope look-up, a compile and a link (~0.4 ms on Node 24, more on Node 20).
//
// esbuild cannot know which entry points are always loaded before others; this step does. A chunk
// that an entry X already loads statically, and whose every other user is only ever imported once
// X has run, is merged into X's own file: nothing is loaded that was not loaded before, only in
// fewer files. Then a small file still alone (a chunk or a verb's own file, up to 12 kB) joins a
// file that is loaded wherever it is needed, when all it imports is loaded there already: a few
// kB more to read on some paths, one module fewer on others (`settle calc`: 23 modules → 4).
// No merge may make two files import each other (checked; the build fails rather than ship it).
// Last, sets of sources the caller names (`together`) become one file whoever loads them: the
// paths that load them together are the ones that count, which the graph cannot tell.
// A merged file exports only the names files outside it import, so two members may hold a
// binding of one name each as long as no other file wants both; the build then checks every
// name each file imports against what its target exports.
// The merging is a second esbuild pass over the first pass's output (scope hoisting with
// esbuild's own renaming), so no text is spliced by hand.
import { build } from 'esbuild';
import { posix } from 'node:path';

/** Bytes under which a chunk's own module costs more than loading its text where it is not needed. */
const SMALL = 12 * 1024;
/** Bytes up to which a file always loaded with another joins it (the sandbox's core files are 20–60 kB). */
const ABSORBED = 64 * 1024;
/** Built-ins Node loads for itself before any module runs (Node 20 and 24): taking them costs nothing. */
const BOOT_BUILTINS = new Set(['events', 'buffer', 'path', 'querystring', 'async_hooks', 'timers', 'util', 'fs', 'url', 'module']);

/**
 * @param {{ path: string, text: string }[]} files the first pass's output, paths relative to the
 *   project (dist/main.js, dist/chunks/…)
 * @param {{ outputs: Record<string, { imports: { path: string, kind: string, external?: boolean }[], exports: string[], inputs: Record<string, unknown>, entryPoint?: string }> }} meta
 * @param {string} root the project's folder (esbuild's working directory)
 * @param {{ deferred?: { root: string, until: string, direct: string[] }, together?: string[][] }} hint
 *   what the graph cannot show (sources by path). `deferred`: the `import()`s made by code `root`
 *   loads statically, other than of `direct`, run only once `until` has run (main.ts: every command
 *   runs from the command tree). `together`: sets of sources whose files are one file wherever
 *   either is loaded, because the paths that load them together are the ones that count (the
 *   embedded sandbox, build.mjs says which); the rare path that needs only one of them reads the
 *   others' text too. Wrong, either would cost time, never correctness: merging keeps ES semantics.
 * @returns {Promise<{ files: { path: string, text: string }[], outputs: Record<string, unknown> }>}
 */
export async function mergeChunks(files, meta, root, hint = {}) {
  const outputs = meta.outputs;
  const all = Object.keys(outputs).filter((f) => f.endsWith('.js'));
  const staticDeps = (f) => outputs[f].imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path);
  const dynamicDeps = (f) => outputs[f].imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => i.path);

  const roots = all.filter((f) => outputs[f].entryPoint && !all.some((g) => dynamicDeps(g).includes(f)));
  const entries = [...new Set([...roots, ...all.flatMap(dynamicDeps)])].sort();
  const closure = new Map(entries.map((e) => [e, reach(e, staticDeps)]));

  // guaranteed(E): files certainly evaluated before entry E's import() can run: for each place that
  // imports E, what every entry loading that place guarantees (its own closure and what precedes it).
  const bySource = (src) => all.find((f) => outputs[f].entryPoint === src);
  const deferred = hint.deferred && {
    root: bySource(hint.deferred.root),
    until: bySource(hint.deferred.until),
    direct: new Set(hint.deferred.direct.map(bySource)),
  };
  if (deferred && (!deferred.root || !deferred.until)) fail('the deferred hint names no entry point');
  const ALL = new Set(all);
  const guaranteed = new Map(entries.map((e) => [e, roots.includes(e) ? new Set() : ALL]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const e of entries) {
      if (roots.includes(e)) continue;
      let g;
      for (const importer of all.filter((f) => dynamicDeps(f).includes(e))) {
        let loaded;
        for (const y of entries.filter((y) => closure.get(y).has(importer))) loaded = meet(loaded, union(closure.get(y), guaranteed.get(y)));
        if (deferred && e !== deferred.until && !deferred.direct.has(e) && closure.get(deferred.root).has(importer)) {
          loaded = union(loaded ?? new Set(), union(closure.get(deferred.until), guaranteed.get(deferred.until)));
        }
        g = meet(g, loaded ?? new Set());
      }
      g ??= new Set();
      if (g.size !== guaranteed.get(e).size) {
        guaranteed.set(e, g);
        changed = true;
      }
    }
  }

  // A non-entry chunk joins entry X when X loads it and every other entry that loads it runs after X.
  const groupOf = new Map(all.map((f) => [f, f]));
  for (const chunk of all) {
    if (entries.includes(chunk)) continue;
    const users = entries.filter((e) => closure.get(e).has(chunk));
    const owner = users.find((x) => users.every((y) => y === x || guaranteed.get(y).has(x)));
    if (owner) groupOf.set(chunk, owner);
  }

  // Two merged chunks exporting the same name cannot share a file; a member that conflicts stays
  // alone, and so does every member it imports (or the group and it would import each other).
  for (let changed = true; changed; ) {
    changed = false;
    for (const owner of new Set(groupOf.values())) {
      const names = new Set(outputs[owner].exports);
      for (const m of membersOf(groupOf, owner)) {
        if (outputs[m].exports.every((n) => !names.has(n) && n !== 'default')) {
          for (const n of outputs[m].exports) names.add(n);
          continue;
        }
        for (const dep of reach(m, staticDeps)) if (dep !== owner && groupOf.get(dep) === owner) groupOf.set(dep, dep);
        changed = true;
        break;
      }
    }
    // No two files may import each other statically: a file outside a group that the group imports
    // and that imports the group back keeps, outside the group, every member it reaches.
    for (const [file, owner] of groupOf) {
      if (file !== owner) continue;
      for (const dep of new Set([...membersOf(groupOf, owner), owner].flatMap(staticDeps).map((d) => groupOf.get(d)))) {
        if (dep === owner) continue;
        const back = [...reach(dep, staticDeps)].filter((f) => f !== owner && groupOf.get(f) === owner);
        for (const f of back) groupOf.set(f, f);
        if (back.length) changed = true;
      }
    }
  }

  // An entry whose code esbuild put wholly in shared chunks is a facade: it imports each name it
  // exports from one of them. Merged into the file holding that chunk, its names are the same
  // bindings, not a second `openProfileStore`.
  const text = new Map(files.map((f) => [f.path, f.text]));
  const facadeSources = new Map();
  for (const f of all) {
    if (Object.keys(outputs[f].inputs).length > 0) continue;
    const from = new Map();
    for (const [, list, spec] of text.get(f).matchAll(/import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
      for (const name of list.split(',').map((n) => n.trim()).filter(Boolean)) from.set(name, posix.join(posix.dirname(f), spec));
    }
    if (outputs[f].exports.every((n) => from.has(n) && outputs[from.get(n)]?.exports.includes(n))) facadeSources.set(f, from);
  }
  /** Whether name `n`, exported by `member`, is the very binding host group `h` exports under that name. */
  const sameBinding = (member, n, h) => {
    const source = facadeSources.get(member)?.get(n);
    return source !== undefined && groupOf.get(source) === h;
  };

  // Groups (a file and the files merged into it so far), and what each entry point loads in files.
  // Moving a group never adds a file to any entry's path, so these only shrink.
  const loadedWith = (e) => union(closure.get(e), guaranteed.get(e));
  const chunksLoaded = new Map(entries.map((e) => [e, loadedWith(e)]));
  const filesLoadedBy = (e) => new Set([...chunksLoaded.get(e)].map((f) => groupOf.get(f)));
  const groupMembers = (g) => [g, ...membersOf(groupOf, g)];
  const groupBytes = (g) => groupMembers(g).reduce((n, f) => n + outputs[f].bytes, 0);
  const groupUsers = (g) => entries.filter((e) => filesLoadedBy(e).has(g));
  const groupDeps = (g) => new Set(groupMembers(g).flatMap((m) => [...reach(m, staticDeps)]).map((f) => groupOf.get(f)).filter((f) => f !== g));
  const groupExports = (g) => groupMembers(g).flatMap((f) => outputs[f].exports);
  // A built-in taken at load time (node:crypto: milliseconds) would be taken by every user of the
  // host; those Node loads for itself before any module runs cost nothing.
  const takesOnlyBootBuiltins = (g) =>
    groupMembers(g).every(
      (f) =>
        Object.keys(outputs[f].inputs).every((i) => !/^pgw-builtin(-named)?:/.test(i) || BOOT_BUILTINS.has(i.split(/[:|]/)[1])) &&
        !outputs[f].imports.some((i) => i.external && !(i.path.startsWith('node:') && BOOT_BUILTINS.has(i.path.slice(5)))),
    );
  /**
   * Moves groups into hosts until nothing moves: each candidate (in `order`) into the first host
   * (in `hostOrder`) that is loaded wherever it is needed, loads everything it imports wherever the
   * host is (no new file on any path), exports none of its names, passes `allowed`, and makes no
   * two files import each other.
   */
  const moveGroups = ({ candidate, order, allowed, hostOrder }) => {
    for (let moved = true; moved; ) {
      moved = false;
      for (const chunk of [...new Set(groupOf.values())].filter(candidate).sort(order)) {
        if (groupOf.get(chunk) !== chunk) continue;
        const users = groupUsers(chunk);
        const deps = groupDeps(chunk);
        const fits = (h) =>
          h !== chunk &&
          // One file exports each name once (a second `FIELDS` would be a different binding).
          groupMembers(chunk).every((m) => outputs[m].exports.every((n) => n !== 'default' && (!groupExports(h).includes(n) || sameBinding(m, n, h)))) &&
          users.every((y) => filesLoadedBy(y).has(h)) &&
          groupUsers(h).every((z) => [...deps].every((d) => d === h || filesLoadedBy(z).has(d))) &&
          allowed(h, users);
        for (const host of [...new Set(groupOf.values())].filter(fits).sort(hostOrder(users))) {
          const members = groupMembers(chunk);
          for (const m of members) groupOf.set(m, host);
          if (!groupCycle(groupOf, staticDeps)) {
            moved = true;
            break;
          }
          for (const m of members) groupOf.set(m, chunk);
        }
      }
    }
  };
  const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

  // A small file (a chunk, or a verb's own file, with whatever has joined it: a module costs more
  // to load than a few kB of text) joins a file loaded wherever it is needed; the host's other
  // users then run its code too, which the checks keep to declarations (no library or built-in
  // pulled onto another path: the start-up tests check that). Largest first, into the host loaded
  // by the fewest entry points (the fewest runs pay for the text); a small file that took in
  // another can itself join a larger one.
  moveGroups({
    candidate: (g) => !roots.includes(g) && groupBytes(g) <= SMALL && takesOnlyBootBuiltins(g),
    order: (a, b) => groupBytes(b) - groupBytes(a) || byName(a, b),
    allowed: () => true,
    hostOrder: () => (a, b) => groupUsers(a).length - groupUsers(b).length || byName(a, b),
  });

  // A file only ever loaded together with another (every entry that loads it loads the other too)
  // joins that other file, up to ABSORBED bytes: its users load one module fewer, and the other
  // file's remaining users load its text. Never into main.js or the command tree (every command
  // loads them, and what a verb defers, table code for JSON output say, must stay deferred), and
  // never onto more runs than it saves a module for. This makes the sandbox's store one file on
  // the embedded look-up's path (issue 23).
  moveGroups({
    candidate: (g) => !roots.includes(g) && groupBytes(g) <= ABSORBED && takesOnlyBootBuiltins(g),
    order: (a, b) => groupBytes(a) - groupBytes(b) || byName(a, b),
    allowed: (h, users) => !roots.includes(h) && h !== deferred?.until && groupUsers(h).length - users.length <= users.length,
    hostOrder: (users) => (a, b) => groupUsers(a).length - users.length - (groupUsers(b).length - users.length) || byName(a, b),
  });

  // The names each file imports from each other file, read from the first pass's text (esbuild
  // writes every import between its files as `import{a as b,c}from"./file.js"`; anything else
  // fails the build here rather than lose a name).
  const namedImports = new Map(all.map((f) => [f, namedImportsOf(f, text.get(f), staticDeps(f))]));
  /**
   * The names files outside group `g` take from it: what they import from its members by name,
   * every export of a member they `import()` (its namespace), and all of a root's (bin/pgw.js
   * imports main.js). Only these need exporting, so only these can clash.
   */
  const neededFrom = (g) => {
    const need = new Set();
    for (const f of all) {
      if (groupOf.get(f) === g) continue;
      for (const [target, names] of namedImports.get(f)) if (groupOf.get(target) === g) for (const n of names) need.add(n);
      for (const d of dynamicDeps(f)) if (groupOf.get(d) === g) for (const n of outputs[d].exports) need.add(n);
    }
    for (const m of groupMembers(g)) if (roots.includes(m)) for (const n of outputs[m].exports) need.add(n);
    return need;
  };
  /** Two members of `g` exporting one needed name as different bindings: [name, first, second]. */
  const clashesIn = (g) => {
    const need = neededFrom(g);
    const by = new Map();
    const found = [];
    for (const m of groupMembers(g)) {
      for (const n of outputs[m].exports) {
        if (!need.has(n) || sameBinding(m, n, g)) continue;
        if (by.has(n)) found.push([n, by.get(n), m]);
        else by.set(n, m);
      }
    }
    return found;
  };

  // The files holding each `together` set become one: the file of the set's first source takes
  // the others' groups. A member that came along with them and exports, for files outside, a name
  // the set's own code exports too leaves the group again: the set's own code is what must share
  // one file.
  for (const sources of hint.together ?? []) {
    const fileOf = (src) => all.find((f) => Object.hasOwn(outputs[f].inputs, src)) ?? fail(`no file holds ${src}`);
    const groups = [...new Set(sources.map((src) => groupOf.get(fileOf(src))))];
    const host = groups[0];
    for (const g of groups.slice(1)) for (const m of groupMembers(g)) groupOf.set(m, host);
    // The set's own code: the files holding its sources and every member they import statically.
    const own = new Set(sources.map(fileOf).flatMap((f) => [...reach(f, staticDeps)]).filter((f) => groupOf.get(f) === host));
    for (let clashes = clashesIn(host); clashes.length; clashes = clashesIn(host)) {
      const [name, a, b] = clashes[0];
      const leaving = !own.has(b) ? b : !own.has(a) ? a : fail(`${a} and ${b} both export ${name} and must share a file`);
      groupOf.set(leaving, leaving);
    }
    if (groupCycle(groupOf, staticDeps)) fail(`the files of ${sources.join(', ')} would import each other statically once merged`);
  }

  if (groupCycle(groupOf, staticDeps)) fail('the merged files would import each other statically');

  const merged = [];
  const newOutputs = {};
  const exportsOf = new Map();
  for (const owner of [...new Set(groupOf.values())].sort()) {
    const members = membersOf(groupOf, owner);
    const moved = outputs[owner].imports.some((i) => !i.external && groupOf.get(i.path) !== i.path);
    if (members.length === 0 && !moved) {
      merged.push({ path: owner, text: text.get(owner) });
      exportsOf.set(owner, outputs[owner].exports);
      newOutputs[owner] = outputs[owner];
      continue;
    }
    // The group's file: the owner first (its imports fix the order the members run in), then every
    // name the owner and its members export for files outside the group (neededFrom).
    // A facade's names are exported once, by the file they come from (sameBinding above).
    const need = neededFrom(owner);
    const exportLines = [owner, ...members]
      .map((f) => [f, outputs[f].exports.filter((n) => need.has(n) && !sameBinding(f, n, owner))])
      .filter(([, names]) => names.length)
      .map(([f, names]) => `export { ${names.join(', ')} } from ${JSON.stringify(f)};`);
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['pgw-group'],
      outfile: owner,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      legalComments: 'none',
      minifyWhitespace: true, // as the first pass (build.mjs)
      logLevel: 'warning',
      write: false,
      metafile: true,
      plugins: [
        {
          name: 'pgw-first-pass',
          setup(b) {
            b.onResolve({ filter: /.*/ }, (args) => {
              if (args.kind === 'entry-point') return { path: 'pgw-group', namespace: 'pgw-group' };
              const target = args.namespace === 'pgw-group' ? args.path : posix.join(posix.dirname(args.importer), args.path);
              if (!groupOf.has(target)) return { path: args.path, external: true }; // node:*, better-sqlite3
              const file = groupOf.get(target);
              if (file === owner) return { path: target, namespace: 'pgw-out' };
              let spec = posix.relative(posix.dirname(owner), file);
              if (!spec.startsWith('.')) spec = `./${spec}`;
              return { path: spec, external: true };
            });
            b.onLoad({ filter: /.*/, namespace: 'pgw-group' }, () => ({
              contents: `import ${JSON.stringify(owner)};\n${exportLines.join('\n')}\n`,
              loader: 'js',
            }));
            b.onLoad({ filter: /.*/, namespace: 'pgw-out' }, (args) => ({ contents: text.get(args.path), loader: 'js' }));
          },
        },
      ],
    });
    merged.push({ path: owner, text: result.outputFiles[0].text });
    exportsOf.set(owner, Object.values(result.metafile.outputs)[0].exports);
    const inputs = {};
    for (const f of [owner, ...members]) Object.assign(inputs, outputs[f].inputs);
    newOutputs[owner] = { ...outputs[owner], inputs: sortKeys(inputs), ...(members.length ? { merged: [owner, ...members] } : {}) };
  }
  // Every name a file imports from another is one that file exports (an export the groups left
  // out would otherwise fail only when that file is loaded).
  for (const { path, text: out } of merged) {
    for (const [target, names] of importLists(path, out)) {
      const missing = names.filter((n) => !exportsOf.get(target)?.includes(n));
      if (missing.length) fail(`${path} imports ${missing.join(', ')} from ${target}, which does not export them`);
    }
  }
  return { files: merged, outputs: newOutputs };
}

/** Whether the files, grouped as `groupOf` says, import each other statically in a cycle. */
function groupCycle(groupOf, staticDeps) {
  const edges = new Map();
  for (const [file, owner] of groupOf) {
    for (const d of staticDeps(file)) {
      const to = groupOf.get(d);
      if (to !== undefined && to !== owner) (edges.get(owner) ?? edges.set(owner, new Set()).get(owner)).add(to);
    }
  }
  const state = new Map();
  const visit = (g) => {
    if (state.get(g) === 'done') return false;
    if (state.get(g) === 'open') return true;
    state.set(g, 'open');
    for (const to of edges.get(g) ?? []) if (visit(to)) return true;
    state.set(g, 'done');
    return false;
  };
  return [...new Set(groupOf.values())].some(visit);
}

/** `[target, names]` for each `import{...}from"./x"` of a built file (`a as b` takes `a`). */
function importLists(file, source) {
  return [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g)].map(([, list, spec]) => [
    posix.join(posix.dirname(file), spec),
    list.split(',').map((n) => n.trim().split(/\s+as\s+/)[0]).filter(Boolean),
  ]);
}

/**
 * importLists of a first-pass file. Every static import of `deps` must be one of those or a bare
 * `import"./x"`, or the build fails.
 */
function namedImportsOf(file, source, deps) {
  const found = importLists(file, source);
  const seen = new Set(found.map(([target]) => target));
  for (const [, spec] of source.matchAll(/import\s*"(\.[^"]+)"/g)) seen.add(posix.join(posix.dirname(file), spec));
  const unread = deps.filter((d) => !seen.has(d));
  if (unread.length) fail(`${file} imports ${unread.join(', ')} in a form this step cannot read`);
  return found;
}

function fail(message) {
  throw new Error(`merge-chunks: ${message}`);
}

function membersOf(groupOf, owner) {
  return [...groupOf].filter(([f, o]) => o === owner && f !== owner).map(([f]) => f).sort();
}

function reach(start, next) {
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length) for (const d of next(todo.pop())) if (!seen.has(d)) seen.add(d), todo.push(d);
  return seen;
}

function meet(a, b) {
  if (a === undefined) return b;
  return new Set([...a].filter((x) => b.has(x)));
}

function union(a, b) {
  return new Set([...a, ...b]);
}

function sortKeys(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

