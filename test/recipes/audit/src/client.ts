/** A small SDK for the recipe: lists animals, and retries a 429 after its Retry-After, doubling each time. */
export function createClient(options: { baseUrl: string; apiKey: string; maxRetries?: number }) {
  return {
    async listPets(query: { limit?: number } = {}): Promise<unknown[]> {
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(`${options.baseUrl}/pets?limit=${query.limit ?? 20}`, { headers: { authorization: `Bearer ${options.apiKey}` } });
        if (res.status === 429 && attempt < (options.maxRetries ?? 3)) {
          await res.arrayBuffer();
          const wait = Number(res.headers.get('retry-after')) * 1000 * 2 ** attempt;
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        if (!res.ok) throw new Error(`listPets answered ${res.status}`);
        return (await res.json()) as unknown[];
      }
    },
  };
}
