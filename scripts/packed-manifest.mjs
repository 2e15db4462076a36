// The package.json that `npm pack` puts in the tarball (issue 44 item 4), different from the
// checkout's in two ways:
//
// - no `scripts` (nor `allowScripts`): they build a checkout and mean nothing in an installed
//   package, and npm names a tarball's `prepare` in its install-scripts advisory ("Run npm install
//   -g --allow-scripts=pgw-cli"), inviting a user to allow a script that never needs to run;
// - the Node 20 carrier by its published range: the checkout names it `file:packages/sqlite-node20`
//   (an optional dependency, so npm skips it and its better-sqlite3 on Node 22 and later, item 3),
//   which in a published manifest would resolve against the installing user's folder.
//
// npm reads package.json from disk when it makes the tarball (after `prepack`), and offers no hook
// between: so `prepack` (after the build) writes the packed manifest in place, keeping the
// checkout's byte for byte in build/, and `postpack` puts it back. A pack killed in that moment
// (the tarball being written) leaves the packed manifest, without the scripts that would put it
// back: `git status` shows it, and `node scripts/packed-manifest.mjs restore` restores it. A
// copy left in build/ beside a checkout's manifest (one restored by git) is stale, and dropped by
// the next pack, never copied over it. A directory `npm publish` would send the checkout's manifest to the registry
// (npm reads it again after `postpack`): `prepublishOnly` refuses, and docs/sandbox.md says to
// publish the packed tarball.
//
//   node scripts/packed-manifest.mjs write|restore|refuse-publish
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MANIFEST = `${ROOT}package.json`;
const KEPT = `${ROOT}build/package.json.checkout`;
const CARRIER = `${ROOT}packages/sqlite-node20/package.json`;

/** The manifest as packed, from the checkout's (pure: test/package/package.test.ts runs it). */
export function packedManifest(checkout, carrier) {
  const { scripts: _scripts, allowScripts: _allow, ...packed } = checkout;
  const optional = { ...packed.optionalDependencies };
  for (const [name, spec] of Object.entries(optional)) {
    if (!String(spec).startsWith('file:')) continue;
    if (name !== carrier.name) throw new Error(`${name}: a file: dependency pgw-cli cannot publish`);
    optional[name] = `^${carrier.version}`;
  }
  return { ...packed, optionalDependencies: optional };
}

function restore() {
  if (!existsSync(KEPT)) return false;
  renameSync(KEPT, MANIFEST);
  return true;
}

// Run as a script (npm's prepack, postpack, prepublishOnly); imported by a test, nothing runs.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const command = process.argv[2];
  if (command === 'write') {
    // A copy left by a killed pack: the checkout's manifest is there again (it has scripts), so the copy is stale.
    if (existsSync(KEPT) && JSON.parse(readFileSync(MANIFEST, 'utf8')).scripts !== undefined) rmSync(KEPT);
    if (restore()) process.stderr.write('packed-manifest: put back the checkout\'s package.json left by an interrupted pack\n');
    const text = readFileSync(MANIFEST, 'utf8');
    const packed = packedManifest(JSON.parse(text), JSON.parse(readFileSync(CARRIER, 'utf8')));
    mkdirSync(`${ROOT}build`, { recursive: true });
    writeFileSync(KEPT, text);
    writeFileSync(MANIFEST, `${JSON.stringify(packed, null, 2)}\n`);
  } else if (command === 'restore') {
    restore();
  } else if (command === 'refuse-publish') {
    process.stderr.write(
      'npm publish sends the manifest it reads from this folder, which is the checkout\'s (scripts, a file: dependency).\n' +
        'Publish the packed tarball instead: npm pack, then npm publish ./pgw-cli-<version>.tgz (docs/sandbox.md, "Installing on each Node line").\n',
    );
    process.exitCode = 1;
  } else if (command !== undefined) {
    process.stderr.write(`packed-manifest: unknown command ${command}\n`);
    process.exitCode = 2;
  }
}
