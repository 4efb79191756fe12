/**
 * `build`, called once per distinct argument (an object compared as JSON, a string, number or
 * boolean by value: no JSON text made for it): one schema instance per distinct default.
 */
export function once<A, R>(build: (arg: A) => R): (arg: A) => R {
  const built = new Map<unknown, R>();
  return (arg) => {
    const key = typeof arg === "object" && arg !== null ? JSON.stringify(arg) : arg;
    let schema = built.get(key);
    if (schema === undefined) {
      schema = build(arg);
      built.set(key, schema);
    }
    return schema;
  };
}

/** `build`, called on first use: a schema the process may never need costs nothing at start-up. */
export function lazy<R>(build: () => R): () => R {
  let built: { value: R } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
