// The image's OCI labels: the build arguments `npm run image` passes (scripts/image-labels.mjs)
// and the Dockerfile's LABEL that reads them. container.test.ts inspects a built image's labels.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LABEL_OF_ARG, buildArgs, gitRevision, labelArgs, labelFlags, sourceUrl } from '../../scripts/image-labels.mjs';
import { ROOT } from '../recipes/project.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Parameters<typeof labelArgs>[0];
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

/** The labels the Dockerfile sets, each with the build argument it reads. */
const LABELS = {
  'org.opencontainers.image.title': 'OCI_TITLE',
  'org.opencontainers.image.description': 'OCI_DESCRIPTION',
  'org.opencontainers.image.version': 'OCI_VERSION',
  'org.opencontainers.image.revision': 'OCI_REVISION',
  'org.opencontainers.image.source': 'OCI_SOURCE',
  'org.opencontainers.image.licenses': 'OCI_LICENSES',
} as const;

describe('the OCI labels', () => {
  it('come from package.json and the git revision', () => {
    const revision = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    expect(gitRevision(ROOT)).toBe(revision);
    expect(labelArgs(pkg, revision)).toEqual({
      OCI_TITLE: 'petstore-mock',
      OCI_DESCRIPTION: pkg.description,
      OCI_VERSION: pkg.version,
      OCI_REVISION: revision,
      OCI_SOURCE: 'https://github.com/petstore-mock/petstore-mock',
      OCI_LICENSES: 'MIT',
    });
    expect(buildArgs({ OCI_VERSION: '1.2.3', OCI_DESCRIPTION: 'a b: c' })).toEqual([
      '--build-arg',
      'OCI_VERSION=1.2.3',
      '--build-arg',
      'OCI_DESCRIPTION=a b: c',
    ]);
  });

  it.each([
    ['git+https://github.com/o/r.git', 'https://github.com/o/r'],
    ['https://gitlab.com/o/r', 'https://gitlab.com/o/r'],
    ['git://github.com/o/r.git', 'https://github.com/o/r'],
  ])('the source of %s is %s', (url, source) => {
    expect(sourceUrl({ type: 'git', url })).toBe(source);
    expect(sourceUrl(url)).toBe(source);
  });

  it('outside a git checkout the revision is unknown', () => {
    expect(gitRevision('/')).toBe('unknown');
  });

  it.each(Object.entries(LABELS))('the Dockerfile sets %s from the build argument %s', (label, arg) => {
    expect(dockerfile).toMatch(new RegExp(`^ARG ${arg}=`, 'm'));
    expect(dockerfile).toContain(`${label}="\${${arg}}"`);
  });

  it('npm run image passes every label argument, and every label itself', () => {
    const script = readFileSync(join(ROOT, 'scripts/image.mjs'), 'utf8');
    expect(script).toContain('labelArgs(');
    expect(script).toContain('...buildArgs(labels), ...labelFlags(labels)');
    expect(Object.keys(labelArgs(pkg, 'x')).sort()).toEqual(Object.values(LABELS).sort());
    expect(Object.fromEntries(Object.entries(LABEL_OF_ARG).map(([arg, label]) => [label, arg]))).toEqual(LABELS);
    expect(labelFlags({ OCI_REVISION: 'abc', OCI_TITLE: 't' })).toEqual([
      '--label',
      'org.opencontainers.image.revision=abc',
      '--label',
      'org.opencontainers.image.title=t',
    ]);
  });
});
