// Run as a program compiled by qjsc (check-quickjs-patches.ts): every function below is read from
// bytecode with its body deferred to its first call. Each kind of function QuickJS-ng enters by
// another path is called here, some only after others' bodies were read, and some never.
import * as std from "qjs:std";

function check(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: ${String(actual)} where ${String(expected)} was expected`);
}

function neverCalled() {
  const inner = () => neverCalled();
  return inner;
}

function outer(x) {
  const add = (y) => x + y;
  function twice(f, v) {
    return f(f(v));
  }
  return twice(add, 1);
}
check(outer(20), 41, "a closure read inside a function read late");

function* numbers(n) {
  for (let i = 0; i < n; i++) yield i * i;
}
check([...numbers(4)].join(","), "0,1,4,9", "a generator");

async function later(value) {
  await null;
  return value + 1;
}
async function* pairs() {
  yield await later(1);
  yield await later(2);
}

class Shape {
  #sides;
  static made = 0;
  constructor(sides) {
    this.#sides = sides;
    Shape.made++;
  }
  get sides() {
    return this.#sides;
  }
  describe() {
    return `${this.constructor.name} of ${this.#sides}`;
  }
  static unused() {
    return "never read";
  }
}
class Square extends Shape {
  constructor() {
    super(4);
  }
  describe() {
    return `${super.describe()}!`;
  }
}
check(new Square().describe(), "Square of 4!", "a derived class and super");
check(Shape.made, 1, "a static field");

function thrower() {
  throw new Error("thrown");
}
try {
  thrower();
  check(true, false, "a throw");
} catch (error) {
  check(error.message, "thrown", "an error from a function read late");
  check(String(error.stack).includes("thrower"), true, "the stack names the function");
}

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
check(fib(15), 610, "recursion");
check(neverCalled.name, "neverCalled", "a function never called keeps its name");
check(neverCalled.length, 0, "and its length");
check(String(neverCalled).includes("const inner = () => neverCalled();"), true, "a function never called has its source text");
check(neverCalled.lineNumber > 1, true, "and its line");

(async () => {
  check(await later(41), 42, "an async function");
  const seen = [];
  for await (const value of pairs()) seen.push(value);
  check(seen.join(","), "2,3", "an async generator");
})().catch((error) => {
  std.err.puts(`FAIL ${error.message}\n`);
  std.exit(1);
});
