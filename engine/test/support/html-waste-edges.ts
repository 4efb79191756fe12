/**
 * Markup at the edges of each rule of the html target's clean-up (src/targets/html-waste.ts), as a
 * paragraph's content carries it into the document: the release executable runs the clean-up in C
 * and the binary test holds its html equal to the library's on these.
 */

const COLUMN = (size: string, align: string, body: string) =>
  `<div class="mj-column-per-50 mj-outlook-group-fix" style="font-size:${size};text-align:left;direction:ltr;display:inline-block;vertical-align:${align};width:50%;">\n <table border="0" cellpadding="0" cellspacing="0" role="presentation" style="vertical-align:${align};" width="100%">${body}</table>\u00a0</div>`;

export const HTML_WASTE_EDGES: readonly string[] = [
  // Zero lengths: in text, in a style (after `(` and not), in other attributes, before `!`, at the tag's end.
  '<p>0px :0px 0px; a:0px! style="x:0px" 0px</p>',
  '<p style="margin:0px;padding:0px 0px;width:calc(0px + 1px);border:0px solid;top:0px!important">a</p>',
  '<p title=" 0px;" data-x=":0px" style="a: 0px ">b</p><span style="b:0px">c</span>',
  '<p style="transform:translate(1px, 0px);margin: 0px">d</p>',
  // Empty attributes, in tags and in text.
  '<p style="" class="">a</p><p>style="" class="" x=""</p><span class="" title="">b</span>',
  '<p>a > b style=""</p><p>c < d class=""</p>',
  // tbody in raw markup and in text.
  "<table><tbody><tr><td>x</td></tr></tbody></table><p>tbody> &lt;tbody&gt; tbody></p>",
  // Repeated backgrounds, matching and not.
  '<p style="background:#fff;background-color:#fff">a</p><p style="background:#fff;background-color:#000;">b</p>',
  '<p style="background:red;background-color:redder;color:blue">c</p><p>background:x;background-color:x; text</p>',
  '<p style="background:url(a);background-color:url(a)">d</p><p style="background: red;background-color: red;">e</p>',
  // Headings and their wrappers: extra properties, relative and zero sizes, case, white space, attributes, names not ASCII.
  '<div style="color:red;font-size:10px"><h2 style="color:blue;font-size:12px">a</h2></div>',
  '<div style="color:red;padding:1px"><h2 style="color:blue;font-size:12px;padding:0">b</h2></div>',
  '<div style="color:red"><h3 style="color:blue;font-size:1.5em">c</h3></div><div style="color:red"><h3 style="color:blue;font-size:0px">d</h3></div>',
  '<div style="COLOR:red"><h4 class="x" style="Color:blue;FONT-SIZE:12.5px">e</h4></div><div style="color:red"><h4 style="color:b;font-size:12.px">f</h4></div>',
  '<div style="\u00a0color:red;\u3000"><h2 style="\u2028color:blue;font-size:\u200312px\ufeff">g</h2></div>',
  '<div style="color:red">\n <h5 title="t" style="color:b;font-size:2px">h</h5> \u00a0</div><div style="color:red"><h6>i</h6></div>',
  '<div style="color:red;;"><h1 style=";color:b;font-size:3px;;">j</h1></div><div style="color"><h1 style="color:b;font-size:3px">k</h1></div>',
  '<div style=" color : red ;\t"><h2 style="\ncolor:blue; FONT-size : 12px ">n</h2></div>',
  '<div style="colo\u017f:red"><h2 style="color:b;font-size:3px">l</h2></div>',
  '<div style="color:red"><h2 style="\u212aolor:b;font-size:3px">m</h2></div>',
  // Empty columns and columns' tables.
  COLUMN("0px", "top", "<tbody></tbody>"),
  COLUMN("0", "middle", "\n"),
  COLUMN("0", "bottom", "<tbody><tr><td>x</td></tr></tbody>"),
  // Zero cell padding.
  '<table cellpadding="0"><tr><td align="left" style="font-size:0px;padding:0px;word-break:break-word;">a</td></tr></table>',
  '<table><tr><td style="direction:ltr;font-size:0;padding:0;text-align:center;">b</td><td style="x:calc(1px);font-size:0px;padding:0;word-break:break-word;">c</td></tr></table>',
  "<p>font-size:0;padding:0;word-break:break-word;</p>",
  // The menu's rules in text, with and without a checkbox's class.
  "<p>noinput.mj-menu-checkbox { a } @media x { b { c } }\u2003 d</p>",
  '<p>noinput.mj-menu-checkbox { a } @media x { b { c } } class="mj-menu-checkbox"</p>',
  // Buttons' markup where the sanitizer leaves it, and mso properties.
  '<p style="mso-line-height-rule:exactly; mso-x : 1;color:red">a</p><a href="https://example.com" style="mso-padding-alt:0px;color:red">b</a>',
  // Left to the JavaScript: U+0000 and a lone surrogate.
  '<p style="margin:0px">a \u0000 b</p>',
  '<p style="margin:0px">\ud800 c</p>',
];

/** The rules' literals and the characters their scans stop at, to be put together in any order. */
export const HTML_WASTE_TOKENS: readonly string[] = [
  "0px",
  "0",
  ":",
  " ",
  ";",
  '"',
  "<",
  ">",
  "(",
  "!",
  "=",
  ' style="',
  ' class="',
  "background:",
  "background-color:",
  "<div",
  "</div>",
  "<h2",
  "tbody>",
  "</",
  "padding:0",
  "font-size:0",
  "<td",
  "x",
  "\u00a0",
  "\n",
];
