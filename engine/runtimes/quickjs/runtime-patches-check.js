// Run as a program compiled by qjsc (check-quickjs-patches.ts): what the release build's changes to
// QuickJS-ng's Maps, atoms, shapes, JSON strings and UTF-8 conversions must leave as they were. A Map
// finds a key by its value whatever made it (a literal's atom, a string built at run time, an integer
// or a double), objects that share their shapes keep their own properties, JSON.parse reads every
// character wherever it stands, and text keeps every character through UTF-8 and back.
import * as os from "qjs:os";
import * as std from "qjs:std";

function check(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: ${String(actual)} where ${String(expected)} was expected`);
}

// Integer keys, many: each found, in a table whose buckets they all reach.
const numbers = new Map();
for (let i = 0; i < 100_000; i++) numbers.set(i, i * 2);
let found = 0;
for (let i = 0; i < 100_000; i++) found += numbers.get(i) === i * 2 ? 1 : 0;
check(found, 100_000, "every integer key");
check(numbers.get(100_000), undefined, "an integer never set");
check(numbers.get(7.0), 14, "an integer's double is the same key");
const doubles = new Map([
  [0, "zero"],
  [0.5, "half"],
  [Number.NaN, "nan"],
  [2 ** 53, "big"],
  [-1e-300, "tiny"],
]);
check(doubles.get(-0), "zero", "-0 is the key 0");
check(doubles.get(1 / 2), "half", "a fraction");
check(doubles.get(0 / 0), "nan", "NaN is one key");
check(doubles.get(2 ** 53), "big", "a large double");
check(doubles.get(-1e-300), "tiny", "a tiny double");
check(doubles.get(1e-300), undefined, "its opposite");
check(new Set([1, 1.0, 2, 2.5, 2.5]).size, 3, "a Set of numbers");

// String keys: a literal (an atom's string) and the same text built at run time are one key.
const side = ["top", "right", "bottom", "left"][1];
const strings = new Map([["padding-right", 1]]);
check(strings.get(`padding-${side}`), 1, "a built string finds a literal's key");
strings.set(["pad", "ding", "-left"].join(""), 2);
check(strings.get("padding-left"), 2, "a literal finds a built string's key");
strings.set("é→", 3);
check(strings.get(`${"é"}${String.fromCharCode(0x2192)}`), 3, "a two-byte string key");
const object = JSON.parse('{"fontSize": 1, "4294967295": 2, "12": 3}');
for (const key of Object.keys(object)) check(strings.has(key), false, `no such key ${key}`);
const byName = new Map(Object.keys(object).map((key) => [key, object[key]]));
check(byName.get("fontSize"), 1, "a key JSON made, found by a literal");
check(byName.get(`${4294967295}`), 2, "a name that is no array index");
check(object[`${"1"}2`], 3, "an array index built at run time");
check(object[["font", "Size"].join("")], 1, "a property read by a built name");
// Equality: an atom's string and the same text built at run time are equal, two atoms are not.
check(`padding-${side}` === "padding-right", true, "a built string equals a literal");
check("padding-right" === "padding-left", false, "two atoms");
check(Object.keys({ "é→": 1 })[0] === `é${String.fromCharCode(0x2192)}`, true, "a two-byte atom and a built string");
check(["a", "b"].includes(["a", ""].join("")), true, "includes finds a built string");

// Many keys, so that a key is looked for in its bucket: names JSON made (atoms) against the same
// names built at run time, each way round.
const names = Object.keys(JSON.parse(`{${Array.from({ length: 2_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`));
const byAtom = new Map(names.map((name, i) => [name, i]));
const byBuilt = new Set();
for (let i = 0; i < 2_000; i++) {
  check(byAtom.get(`k${i}`), i, `a built key finds the atom's k${i}`);
  byBuilt.add(`k${i}`);
}
for (const name of names) check(byBuilt.has(name), true, `an atom's key finds the built ${name}`);

// Objects given the same properties in the same order share the shapes the context keeps: what one
// of them does to its own properties (a delete, a freeze, a getter, a property more) is not done to
// the others, and more objects and properties than the context keeps shapes for are still right.
const keys = (object) => Object.keys(object).join(",");
const made = Array.from({ length: 4 }, (_, i) => {
  const o = {};
  o.a = i;
  o.b = `${i}`;
  o.c = [i];
  return o;
});
delete made[1].b;
Object.freeze(made[2]);
Object.defineProperty(made[3], "c", { get: () => "got", enumerable: true, configurable: true });
made[0].d = "more";
check(keys(made[0]), "a,b,c,d", "a property more on one object");
check(keys(made[1]), "a,c", "a property deleted from one object");
check(made[2].a, 2, "a frozen object's value");
check(Reflect.set(made[2], "a", 9), false, "a frozen object refuses a value");
check(made[2].a, 2, "a frozen object stays");
check(Object.isFrozen(made[0]) || Object.isFrozen(made[3]), false, "the others are not frozen");
check(made[3].c, "got", "a getter on one object");
check(made[0].c[0] + made[1].c[0], 1, "the others keep their values");
const literal = (i) => ({ x: i, y: i + 1, z: i + 2 });
const literals = Array.from({ length: 100 }, (_, i) => literal(i));
check(
  literals.every((o, i) => o.x === i && o.y === i + 1 && o.z === i + 2 && keys(o) === "x,y,z"),
  true,
  "object literals",
);
check(keys({ z: 1, y: 2, x: 3 }), "z,y,x", "the same keys in another order");
const wide = {};
for (let i = 0; i < 300; i++) wide[`p${i}`] = i;
const wideAgain = {};
for (let i = 0; i < 300; i++) wideAgain[`p${i}`] = -i;
check(wide.p299 + wideAgain.p299, 0, "objects of more properties than a kept shape has");
const lineages = [];
for (let i = 0; i < 6_000; i++) lineages.push({ [`first${i}`]: i, second: i });
check(
  lineages.every((o, i) => o[`first${i}`] === i && o.second === i && keys(o) === `first${i},second`),
  true,
  "more lineages than the context keeps",
);

// Strings read by JSON.parse, eight bytes a step where none is a quote, a backslash, a control
// character or beyond ASCII: each such character at every place within and across two steps, in a
// string that is one-byte and in one already widened by a character beyond Latin-1.
const specials = ['"', "\\", "\n", "\u0001", "\u001f", " ", "~", "\u007f", "é", "—", "😀", "\u2028"];
for (const before of ["", "→"]) {
  for (const special of specials) {
    for (let at = 0; at < 20; at++) {
      const text = `${before}${"a".repeat(at)}${special}${"b".repeat(19 - at)}${special}`;
      check(JSON.parse(JSON.stringify(text)), text, `JSON.parse of ${JSON.stringify(text)}`);
      check(JSON.parse(`{${JSON.stringify(text)}:1}`)[text], 1, `a JSON key ${JSON.stringify(text)}`);
    }
  }
}
for (let at = 0; at < 20; at++) {
  let refused = false;
  try {
    JSON.parse(`"${"a".repeat(at)}\u0001${"b".repeat(9)}"`);
  } catch (error) {
    refused = error instanceof SyntaxError;
  }
  check(refused, true, `a raw control character ${at} bytes into a JSON string`);
}

// Text through UTF-8 and back (std's file functions convert both ways), ASCII runs beside every width of character.
const texts = [
  "plain ASCII text, long enough for several words of it",
  `${"a".repeat(17)}é${"b".repeat(9)}`,
  `${"c".repeat(8)}—→${"d".repeat(31)}😀e`,
  "é",
  "x".repeat(64),
];
const path = `/tmp/runtime-patches-check-${Date.now()}-${Math.floor(Math.random() * 1e9)}.txt`;
for (const text of texts) {
  const out = std.open(path, "w");
  out.puts(text);
  out.close();
  check(std.loadFile(path), text, `text through UTF-8: ${text.slice(0, 20)}`);
}
os.remove(path);
std.printf("runtime patches: ok\n");
