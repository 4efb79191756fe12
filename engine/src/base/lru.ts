/**
 * A small least-recently-used map: Map keeps insertion order, so re-inserting marks an entry as used.
 * Bounded by its entry count and by the total `weigh` of its values (a value heavier than that alone
 * is not kept).
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  private weight = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
    private readonly weigh: (value: V) => number = () => 0,
  ) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    this.entries.set(key, value);
    this.weight += weight;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity && this.weight <= this.maxWeight) break;
      this.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  private delete(key: K): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.weight -= this.weigh(value);
  }
}
