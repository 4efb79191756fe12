// @babel/runtime's isNativeReflectConstruct for the mailrender-engine bundle: the same probe, run
// once. Babel's helper memoises by rebinding its own export, which callers that captured the
// original function (callSuper) never see, so every construction of an mjml component re-ran
// Reflect.construct and a try/catch: a few ms of a cold render.
let native = false;
try {
  native = !Boolean.prototype.valueOf.call(Reflect.construct(Boolean, [], function () {}));
} catch {}
const isNativeReflectConstruct = () => native;
module.exports = isNativeReflectConstruct;
module.exports.__esModule = true;
module.exports.default = isNativeReflectConstruct;
