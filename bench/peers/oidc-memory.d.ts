/**
 * node-oidc-provider's own in-memory adapter and its LRU store (outside its public types): the
 * peer gives the adapter a larger store than its default, which keeps about a thousand entries
 * and would drop a pool of refresh tokens before the load used it.
 */
declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  import type { Adapter } from 'oidc-provider';

  const MemoryAdapter: new (model: string, store: object) => Adapter;
  export default MemoryAdapter;
}

declare module 'oidc-provider/lib/helpers/lru.js' {
  export default class LRU {
    constructor(options: { maxSize: number });
    clear(): void;
  }
}
