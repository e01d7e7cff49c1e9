// The OCI labels of the image (org.opencontainers.image.*), as build arguments: filled from
// package.json and the git revision of the working tree the image is built from, so a registry,
// a scanner or `docker inspect` can tell what an image holds and where it came from.
import { execFileSync } from 'node:child_process';

/** The repository's web address from package.json's `repository` (a string or `{url}`, `git+…`, `.git`). */
export function sourceUrl(repository) {
  const url = typeof repository === 'string' ? repository : repository?.url;
  if (typeof url !== 'string' || url === '') return '';
  return url
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/\.git$/, '');
}

/** The commit the working tree is at, or `unknown` outside a git checkout (a tarball, say). */
export function gitRevision(cwd = process.cwd()) {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** The build arguments the Dockerfile turns into labels, by name. */
export function labelArgs(pkg, revision) {
  return {
    OCI_TITLE: pkg.name,
    OCI_DESCRIPTION: pkg.description ?? '',
    OCI_VERSION: pkg.version,
    OCI_REVISION: revision,
    OCI_SOURCE: sourceUrl(pkg.repository),
    OCI_LICENSES: pkg.license ?? '',
  };
}

/** `--build-arg NAME=VALUE` for each, as the build command takes them. */
export function buildArgs(args) {
  return Object.entries(args).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`]);
}
