// A cache with expiry.

export interface Clock {
  now(): number;
  readonly zone: string;
}

export type Key = string | number;

export enum Policy {
  LeastRecent,
  FirstIn,
}

const DEFAULT_TTL = 60_000;

export class Cache<V> {
  private readonly entries = new Map<Key, { value: V; at: number }>();
  protected hits = 0;

  constructor(private clock: Clock, public ttl: number = DEFAULT_TTL) {}

  public get(key: Key): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || this.clock.now() - entry.at > this.ttl) {
      return undefined;
    }
    this.hits += 1;
    return entry.value;
  }

  set(key: Key, value: V): void {
    this.entries.set(key, { value, at: this.clock.now() });
  }

  private evict(): number {
    let evicted = 0;
    for (const [key, entry] of this.entries) {
      if (this.clock.now() - entry.at > this.ttl) {
        this.entries.delete(key);
        evicted += 1;
      }
    }
    return evicted;
  }
}

export namespace Clocks {
  export const system: Clock = { now: () => Date.now(), zone: "UTC" };

  export function fixed(at: number): Clock {
    return { now: () => at, zone: "UTC" };
  }
}

export abstract class Store {
  abstract load(key: Key): Promise<string>;
}

declare function trace(message: string): void;
