// `npm run image`: builds the container image localhost/petstore-mock:local from this working tree.
// The build needs no network inside the container: the package is built, packed and given its
// production dependencies here on the host, in .image/app, and the Dockerfile only copies that.
//
//   npm run image                        podman or docker, whichever is installed
//   npm run image -- --stage-only        only fill .image/app (then: docker build -t NAME .)
//   NODE_IMAGE=my/node:20 npm run image  another base image (passed as --build-arg NODE_IMAGE)
//   CONTAINER_ENGINE=podman npm run image
//   IMAGE=my/petstore-mock:1 npm run image
//   IMAGE_REVISION=$GITHUB_SHA npm run image   the revision label, where the tree is no git checkout
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildArgs, gitRevision, labelArgs, labelFlags } from './image-labels.mjs';
import { builtFromThese } from './build-inputs.mjs';

const IMAGE = process.env.IMAGE || 'localhost/petstore-mock:local';
const STAGE = '.image';
const APP = join(STAGE, 'app');

function say(text) {
  process.stderr.write(`petstore-mock image: ${text}\n`);
}

function run(command, args, options = {}) {
  execFileSync(command, args, { stdio: ['ignore', 2, 2], ...options });
}

function works(command, args) {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 15_000 });
  return result.status === 0;
}

/** The engine to build with: CONTAINER_ENGINE, else docker when its daemon answers, else podman. */
function engine() {
  if (process.env.CONTAINER_ENGINE) return process.env.CONTAINER_ENGINE;
  if (works('docker', ['info'])) return 'docker';
  if (works('podman', ['--version'])) return 'podman';
  if (works('docker', ['--version'])) return 'docker';
  say('neither podman nor docker is installed; install one, or run with --stage-only and build .image/app yourself.');
  process.exit(1);
}

/** Fills .image/app with what `npm pack` ships and the production dependencies of the lock file. */
function stage() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  rmSync(STAGE, { recursive: true, force: true });
  mkdirSync(APP, { recursive: true });
  if (builtFromThese()) say('dist/ is built from these sources already; not building again');
  else {
    say('building dist/');
    run(process.execPath, ['scripts/build.mjs']);
  }
  // The packed files are exactly what the npm package ships: bin, dist, scenarios, fixtures, docs.
  run(npm, ['pack', '--ignore-scripts', '--silent', '--pack-destination', STAGE]);
  const tarball = readdirSync(STAGE).find((name) => name.endsWith('.tgz'));
  run('tar', ['-xzf', join(STAGE, tarball), '-C', APP, '--strip-components=1']);
  rmSync(join(STAGE, tarball));
  copyFileSync('package-lock.json', join(APP, 'package-lock.json'));
  say('installing the production dependencies into .image/app');
  // No install script runs: every dependency is plain JavaScript, so what is installed here runs
  // in the container as it is.
  run(npm, ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: APP });
  rmSync(join(APP, 'package-lock.json'));
}

stage();
if (process.argv.includes('--stage-only')) {
  say(`staged in ${APP}; build with: docker build -t ${IMAGE} . (add --build-arg OCI_VERSION=… and the other OCI_ arguments of the Dockerfile for its labels)`);
  process.exit(0);
}
const tool = engine();
const args = ['build', '-t', IMAGE, '-f', 'Dockerfile'];
// Podman writes OCI images by default, and the OCI format has no HEALTHCHECK.
if (/podman/.test(tool)) args.push('--format', 'docker');
if (process.env.NODE_IMAGE) args.push('--build-arg', `NODE_IMAGE=${process.env.NODE_IMAGE}`);
// The OCI labels: what the image holds (package.json) and the commit it was built from.
// As build arguments for the Dockerfile's LABEL, and as labels on the image, which a cached LABEL
// step cannot leave stale (scripts/image-labels.mjs).
const labels = labelArgs(JSON.parse(readFileSync('package.json', 'utf8')), process.env.IMAGE_REVISION || gitRevision());
args.push(...buildArgs(labels), ...labelFlags(labels));
args.push('.');
say(`${tool} ${args.join(' ')}`);
run(tool, args);
say(`built ${IMAGE}; run it with: ${tool} run --rm -p 4010:4010 ${IMAGE}`);
