// `npm pack` and `npm publish` (prepack, postpack). `strip` builds dist/ and leaves `prepare` out
// of the packed package.json: the tarball ships dist/ built, and npm lists a tarball's `prepare`
// among the install scripts a project has to approve, although it never runs there. The file as
// it was waits next to it for `restore`, which also mends a pack that failed half-way.
// PETSTORE_MOCK_PACK_PREBUILT=1 packs the dist/ there is (the tests, which run beside others
// that use it).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const manifest = 'package.json';
const kept = '.package.json.unpacked';

if (existsSync(kept)) renameSync(kept, manifest);
if (process.argv[2] === 'strip') {
  if (process.env.PETSTORE_MOCK_PACK_PREBUILT !== '1') await import('./build.mjs');
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  writeFileSync(kept, text);
  // Renamed into place, so that a command reading package.json meanwhile sees one whole file.
  writeFileSync(`${manifest}.tmp`, `${JSON.stringify(pkg, null, 2)}\n`);
  renameSync(`${manifest}.tmp`, manifest);
}
