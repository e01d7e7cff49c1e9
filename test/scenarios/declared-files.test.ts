// Declared operations in scenario files: what the specification defines is refused with the file,
// line and column of the mistake; a file that declares new operations loads.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/core/scenarios/scenario-compiler.js';
import { defaultSettings } from '../../src/core/state/session-settings.js';
import { BaseData } from '../../src/core/state/base-data.js';
import { ScenarioSource, type ScenarioDefaults } from '../../src/files/scenario-files.js';
import { undeclaredMethod } from '../support/undeclared.js';

const host: ScenarioDefaults = { settings: defaultSettings(new BaseData([])), baseFor: (data) => new BaseData(data.pets ?? []) };
const folder = mkdtempSync(join(tmpdir(), 'petstore-declared-'));

/** A scenario file declaring one operation, its method on line 5 (column 5) and its path on line 6 (column 5). */
function fileWith(method: string, path: string): string {
  return [
    'description: declares one',
    'operations:',
    '  - operationId: mine',
    '    answers: [{ status: 200 }]',
    `    method: ${method}`,
    `    path: "${path}"`,
    '',
  ].join('\n');
}

function errorOf(name: string, text: string): string {
  const file = join(folder, name);
  writeFileSync(file, text);
  try {
    ScenarioSource.read(file).settings(host);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return (error as Error).message;
  }
  throw new Error('no error');
}

describe('a scenario file declaring what the specification defines', () => {
  it.each([
    ['GET', '/v1/pets', 6, 5, /GET \/v1\/pets is already defined by the specification as listPets/],
    ['POST', '/v1/pets', 6, 5, /createPet/],
    ['GET', '/v1/pets/{petId}', 6, 5, /getPet \(GET \/v1\/pets\/\{petId\}\)/],
    ['GET', '/v1/pets/{id}', 6, 5, /getPet/],
    ['GET', '/v1/pets/7', 6, 5, /getPet/],
    ['GET', '/v1/openapi.json', 6, 5, /the path of the served OpenAPI document/],
    ['HEAD', '/v1/pets', 5, 5, /HEAD is answered by the mock itself/],
    ['HEAD', '/v1/pets/{petId}', 5, 5, /HEAD is answered by the mock itself/],
    ['OPTIONS', '/v1/pets', 5, 5, /OPTIONS/],
    ['OPTIONS', '/v1/store/orders', 5, 5, /OPTIONS/],
  ])('%s %s is refused at line %i, column %i', (method, path, line, col, message) => {
    const name = `${method}-${path.replace(/[^a-z0-9]+/gi, '-')}.yaml`.toLowerCase().replace(/-+/g, '-');
    const text = errorOf(name, fileWith(method, path));
    const prefix = `petstore-mock: ${join(folder, name)}:${line}:${col}: `;
    expect(text.slice(0, prefix.length)).toBe(prefix);
    expect(text.slice(prefix.length)).toMatch(message);
    expect(text.endsWith('; fix the file and try again.')).toBe(true);
  });

  it.each([
    ['a path outside /v1', fileWith('GET', '/v2/orders'), 6, 5, /path/],
    ['a method HTTP APIs do not use here', fileWith('TRACE', '/v1/orders'), 5, 5, /method/],
    ['no answers', 'description: x\noperations:\n  - operationId: a\n    method: GET\n    path: /v1/a\n    answers: []\n', 6, 5, /answers/],
  ])('%s is refused by the schema with its place', (_what, text, line, col, message) => {
    const name = `schema-${String(message).length}.yaml`;
    const error = errorOf(name, text);
    expect(error.startsWith(`petstore-mock: ${join(folder, name)}:${line}:${col}: `)).toBe(true);
    expect(error).toMatch(message);
  });

  it.each([
    ['a Trailer header', 'Trailer: Expires', /Trailer describes the connection or the body's framing/],
    ['a header named constructor', 'constructor: x', /constructor is a name the mock does not take/],
    ['a value past Latin-1', 'X-Done: "done \u2713"', /not a header value HTTP allows/],
  ])("%s in a declared answer is refused at the header's line and column", (_what, header, message) => {
    const name = `header-${String(message).length}.yaml`;
    const text = [
      'description: x',
      'operations:',
      '  - operationId: a',
      '    method: GET',
      '    path: /v1/a',
      '    answers:',
      '      - status: 200',
      '        headers:',
      `          ${header}`,
      '',
    ].join('\n');
    const error = errorOf(name, text);
    expect(error.startsWith(`petstore-mock: ${join(folder, name)}:9:11: `)).toBe(true);
    expect(error).toMatch(message);
    expect(error).not.toContain('\n');
  });

  const method = undeclaredMethod('/v1/pets/{petId}');
  it(`loads new operations, including a ${method} of an animal under another parameter name`, () => {
    const file = join(folder, 'ok.yaml');
    writeFileSync(
      file,
      fileWith(method, '/v1/pets/{id}').replace('answers: [{ status: 200 }]', 'answers: [{ status: 204, times: 2 }, { status: 404, body: { gone: true } }]'),
    );
    const settings = ScenarioSource.read(file).settings(host);
    expect(settings.operations).toEqual([
      {
        operationId: 'mine',
        method,
        path: '/v1/pets/{id}',
        answers: [
          { status: 204, times: 2 },
          { status: 404, body: '{"gone":true}', times: 1 },
        ],
      },
    ]);
  });
});
