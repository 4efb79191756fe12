// `lodash/fp` for the mailrender-engine bundle: only the functions mjml uses (mjml-parser-xml,
// mjml-section, mjml-hero), each converted by lodash's own fp converter over the full lodash build
// that mjml loads anyway. The real `lodash/fp` builds a second lodash (lodash.min's runInContext)
// and wraps all of its ~300 functions at load, all of which would sit in the startup snapshot.
// A function missing here is undefined: mjml-section and mjml-hero call theirs at module load, so a
// gap fails the snapshot build, not a render.
const _ = require("lodash");
const convert = require("lodash/fp/_baseConvert");

module.exports = Object.fromEntries(["filter", "flow", "identity", "join", "map"].map((name) => [name, convert(_, name, _[name])]));
