// The Node clients of the retry-rules suite, each configured once well and once badly for one rule.
//
// Usage: node retry-rules-client.mjs CASE MODE URL KEY SESSION
//   jitter   six callers at once: good = fetch, each sleeping Retry-After plus a random share of a
//            second (full jitter); bad = got's own retry, which waits exactly Retry-After
//   create   one create: good = got's defaults (it never retries a POST); bad = got with POST added
//            to its retry methods
//   misread  one call: good = a fetch loop sleeping Retry-After seconds; bad = the same loop reading
//            it as milliseconds
//   date     one call: bad = a fetch loop that reads only the seconds form (an HTTP-date gives NaN,
//            and it falls back to 100 ms)
// Prints the final status of each call, comma-separated.
const [kind, mode, url, key, session] = process.argv.slice(2);
const headers = { authorization: `Bearer ${key}`, 'x-mock-session': session };
const good = mode === 'good';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fetch loop: sends, and on a 429 sleeps what `wait` makes of the answer, up to three retries. */
async function loop(target, wait, init = {}) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(target, { ...init, headers: { ...headers, ...init.headers } });
    await res.arrayBuffer();
    if (res.status !== 429 || attempt === 3) return res.status;
    await sleep(wait(res));
  }
}

async function main() {
  const target = `${url}/pets?limit=1`;
  if (kind === 'jitter') {
    if (good) return Promise.all([1, 2, 3, 4, 5, 6].map(() => loop(target, (res) => Number(res.headers.get('retry-after')) * 1000 + Math.random() * 1000)));
    const { default: got } = await import('got');
    return Promise.all(
      [1, 2, 3, 4, 5, 6].map(() =>
        got(target, { headers, retry: { limit: 3 } }).then(
          (r) => r.statusCode,
          (error) => error.response?.statusCode ?? 0,
        ),
      ),
    );
  }
  if (kind === 'create') {
    const { default: got } = await import('got');
    const retry = good ? { limit: 2 } : { limit: 2, methods: ['GET', 'POST'] };
    const status = await got.post(`${url}/pets`, { headers, json: { name: 'Rex', categoryId: 1, status: 'available' }, retry }).then(
      (r) => r.statusCode,
      (error) => error.response?.statusCode ?? error.code,
    );
    return [status];
  }
  if (kind === 'misread') return [await loop(target, (res) => Number(res.headers.get('retry-after')) * (good ? 1000 : 1))];
  return [await loop(target, (res) => Number(res.headers.get('retry-after')) * 1000 || 100)];
}

console.log((await main()).join(','));
