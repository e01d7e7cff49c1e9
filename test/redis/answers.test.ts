// The API script's answer as one call's envelope (api-script.ts): what a session's decisions
// share comes once, in cx; answersOf gives each decision its own whole answer again.
import { describe, expect, it } from 'vitest';
import { answersOf } from '../../src/state-redis/answers.js';

const decision = { outcome: 'allowed', report: { limit: 10, remaining: 9, reset: '1790000060' } };

describe('answersOf', () => {
  it('gives each decision the fields of its session named by x, and the call’s Redis time', () => {
    const raw = JSON.stringify({
      real: '1790000000123',
      cx: [
        { now: '1790000000123', details: '', ep: '4' },
        { now: '1000', details: '1', ep: '9' },
      ],
      o: [
        { x: 1, seq: 7, decision },
        { x: 2, seq: 1, decision, evicted: '1789999999000', data: '5' },
        { x: 1, seq: 8, decision },
        { st: 'stale', set: 'start-2' },
        { st: 'error', err: 'WRONGTYPE' },
      ],
    });
    expect(answersOf(raw)).toEqual({
      expired: false,
      real: 1790000000123,
      answers: [
        { st: 'ok', now: '1790000000123', real: '1790000000123', details: '', ep: '4', evicted: '', seq: 7, decision },
        { st: 'ok', now: '1000', real: '1790000000123', details: '1', ep: '9', evicted: '1789999999000', seq: 1, decision, data: '5' },
        { st: 'ok', now: '1790000000123', real: '1790000000123', details: '', ep: '4', evicted: '', seq: 8, decision },
        { st: 'stale', set: 'start-2' },
        { st: 'error', err: 'WRONGTYPE' },
      ],
    });
  });

  it('reads an empty Lua table, encoded as {}, as no sessions', () => {
    expect(answersOf('{"real":"5","cx":{},"o":[{"st":"unregistered"}]}')).toEqual({ expired: false, real: 5, answers: [{ st: 'unregistered' }] });
  });

  it('turns a decision naming a session the answer lacks into an error of that decision alone', () => {
    const { answers } = answersOf(
      JSON.stringify({
        real: '5',
        cx: [{ now: '5', details: '', ep: '1' }],
        o: [
          { x: 2, seq: 1, decision },
          { x: 1, seq: 2, decision },
        ],
      }),
    );
    expect(answers.map((a) => a.st)).toEqual(['error', 'ok']);
  });

  it.each([
    ['an expired call', '{"expired":true}', { answers: [], expired: true, real: undefined }],
    ['text that is not JSON', 'ERR something', { answers: [], expired: false, real: undefined }],
    ['a JSON number', '42', { answers: [], expired: false, real: undefined }],
    ['null', 'null', { answers: [], expired: false, real: undefined }],
  ])('%s holds no answers', (_name, raw, expected) => {
    expect(answersOf(raw)).toEqual(expected);
  });
});
