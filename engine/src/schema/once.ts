/** `build`, called once per distinct argument (compared as JSON): one schema instance per distinct default. */
export function once<A, R>(build: (arg: A) => R): (arg: A) => R {
  const built = new Map<string, R>();
  return (arg) => {
    const key = JSON.stringify(arg);
    let schema = built.get(key);
    if (schema === undefined) {
      schema = build(arg);
      built.set(key, schema);
    }
    return schema;
  };
}
