/** Differential cases for mj-text, mj-image, mj-button and mj-divider: fragments that go inside `<mj-body>`. */

const one = (inner: string): string => `<mj-section><mj-column>${inner}</mj-column></mj-section>`;

export const cases: Record<string, string> = {
  // mj-text
  "text default": one(`<mj-text>Hello <b>world</b></mj-text>`),
  "text empty": one(`<mj-text></mj-text>`),
  "text content trimmed": one(`<mj-text>
      <p style="margin:0">First line</p>
      <p style="margin:0">Second   line</p>
    </mj-text>`),
  "text typography": one(
    `<mj-text font-family="Arial, sans-serif" font-size="18px" font-style="italic" font-weight="700" letter-spacing="2px" line-height="1.5" color="#abc" text-decoration="underline" text-transform="uppercase">Styled</mj-text>`,
  ),
  "text negative letter-spacing em": one(`<mj-text letter-spacing="-0.5em" line-height="120%">Tight</mj-text>`),
  "text rgba color": one(`<mj-text color="rgba(17,34,51,0.5)" font-weight="bold">Faded</mj-text>`),
  "text line-height px": one(`<mj-text line-height="22px">Lines</mj-text>`),
  "text align center": one(`<mj-text align="center">Centred</mj-text>`),
  "text align right": one(`<mj-text align="right">Right</mj-text>`),
  "text align justify": one(`<mj-text align="justify">Justified text that goes on</mj-text>`),
  "text height": one(`<mj-text height="50px">Tall</mj-text>`),
  "text height percent": one(`<mj-text height="50%">Tall</mj-text>`),
  "text css-class": one(`<mj-text css-class="intro">Classed</mj-text>`),
  "text two css classes": one(`<mj-text css-class="intro hide-mobile">Classed</mj-text>`),
  "text css-class height align": one(`<mj-text css-class="intro" height="40px" align="center">All three</mj-text>`),
  "text padding shorthand": one(`<mj-text padding="0px">No padding</mj-text>`),
  "text padding sides": one(`<mj-text padding="4px 8px 12px 16px" padding-top="20px" padding-left="0px">Sides</mj-text>`),
  "text container background and vertical-align": one(
    `<mj-text container-background-color="#f0f0f0" vertical-align="middle" background-color="#ff0000">Bg</mj-text>`,
  ),
  "text heading markup": one(`<mj-text><h1 style="margin:0;font-size:32px">Title &amp; more</h1></mj-text>`),
  "text link markup": one(`<mj-text><a href="https://example.com/?a=1&amp;b=2" target="_blank" style="color:#0000ff">Link</a></mj-text>`),
  "text several in column": one(`<mj-text>One</mj-text><mj-text>Two</mj-text><mj-text align="right">Three</mj-text>`),

  // mj-image
  "image default": one(`<mj-image src="https://example.com/a.png" />`),
  "image alt title": one(`<mj-image src="https://example.com/a.png" alt="A &quot;quoted&quot; alt" title="Title" />`),
  "image href": one(`<mj-image src="https://example.com/a.png" href="https://example.com/" />`),
  "image href full": one(
    `<mj-image src="https://example.com/a.png" href="https://example.com/?x=1&amp;y=2" target="_self" rel="noopener" name="img1" title="T" />`,
  ),
  "image width": one(`<mj-image src="https://example.com/a.png" width="200px" />`),
  "image width wider than column": one(`<mj-image src="https://example.com/a.png" width="800px" />`),
  "image width and height": one(`<mj-image src="https://example.com/a.png" width="300px" height="150px" />`),
  "image height auto": one(`<mj-image src="https://example.com/a.png" height="auto" />`),
  "image border radius": one(`<mj-image src="https://example.com/a.png" border-radius="8px" />`),
  "image border": one(`<mj-image src="https://example.com/a.png" border="2px solid #ff0000" />`),
  "image border sides": one(
    `<mj-image src="https://example.com/a.png" border-left="3px solid #000" border-right="5px dashed #00f" border-top="1px solid red" border-bottom="1px solid red" />`,
  ),
  "image fluid-on-mobile": one(`<mj-image src="https://example.com/a.png" fluid-on-mobile="true" width="250px" />`),
  "image fluid-on-mobile false": one(`<mj-image src="https://example.com/a.png" fluid-on-mobile="false" />`),
  "image css-class": one(`<mj-image src="https://example.com/a.png" css-class="hero" />`),
  "image align left": one(`<mj-image src="https://example.com/a.png" width="100px" align="left" />`),
  "image align right": one(`<mj-image src="https://example.com/a.png" width="100px" align="right" />`),
  "image padding": one(`<mj-image src="https://example.com/a.png" padding="0px" />`),
  "image padding sides": one(`<mj-image src="https://example.com/a.png" padding="10px 40px" padding-left="0px" padding-right="15px" />`),
  "image srcset sizes usemap": one(
    `<mj-image src="https://example.com/a.png" srcset="https://example.com/a.png 1x, https://example.com/a@2x.png 2x" sizes="(max-width: 480px) 100vw, 600px" usemap="#map" />`,
  ),
  "image max-height font-size": one(`<mj-image src="https://example.com/a.png" max-height="120px" font-size="16px" />`),
  "image borders and height": one(
    `<mj-image src="https://example.com/a.png" width="300px" height="120px" border-radius="4px" border-left="1px solid #000" fluid-on-mobile="true" />`,
  ),
  "image container background": one(`<mj-image src="https://example.com/a.png" container-background-color="#eeeeee" />`),
  "image everything": one(
    `<mj-image src="https://example.com/a.png" alt="All" href="https://example.com/" width="320px" height="160px" align="left" border-radius="4px" border="1px solid #ccc" padding="5px 10px" fluid-on-mobile="true" css-class="hero wide" />`,
  ),
  "image two in column": one(`<mj-image src="https://example.com/a.png" /><mj-image src="https://example.com/b.png" fluid-on-mobile="true" />`),

  // mj-button
  "button default": one(`<mj-button>Click</mj-button>`),
  "button href": one(`<mj-button href="https://example.com/">Go</mj-button>`),
  "button href full": one(`<mj-button href="https://example.com/?a=1&amp;b=2" target="_self" rel="noopener" name="cta" title="Call">Go</mj-button>`),
  "button name title without href": one(`<mj-button name="cta" title="Call" rel="noopener">No link</mj-button>`),
  "button width px": one(`<mj-button href="https://example.com/" width="300px">Wide</mj-button>`),
  "button width percent": one(`<mj-button href="https://example.com/" width="100%">Full</mj-button>`),
  "button width px border inner-padding": one(`<mj-button width="250px" border="2px solid #000000" inner-padding="12px 30px 12px 20px">Boxed</mj-button>`),
  "button border sides": one(
    `<mj-button border-left="4px solid #f00" border-right="1px solid #0f0" border-top="2px dotted #00f" border-bottom="3px dotted #00f" width="200px">Sides</mj-button>`,
  ),
  "button border": one(`<mj-button border="1px solid #333333">Bordered</mj-button>`),
  "button border-radius": one(`<mj-button border-radius="20px">Round</mj-button>`),
  "button inner-padding": one(`<mj-button inner-padding="5px">Tight</mj-button>`),
  "button inner-padding two values": one(`<mj-button inner-padding="8px 16px">Tight</mj-button>`),
  "button css-class": one(`<mj-button css-class="cta">Classed</mj-button>`),
  "button two css classes": one(`<mj-button css-class="cta u123">Classed</mj-button>`),
  "button typography": one(
    `<mj-button background-color="#0a66c2" color="#fff" font-family="Arial, sans-serif" font-size="16px" font-style="italic" font-weight="700" line-height="1.2" letter-spacing="1px" text-decoration="underline" text-transform="uppercase">Styled</mj-button>`,
  ),
  "button background transparent": one(`<mj-button background-color="transparent" color="rgba(0,0,0,0.5)">Transparent</mj-button>`),
  "button background rgba": one(`<mj-button background-color="rgba(10,102,194,0.8)" border="1px solid rgba(0,0,0,0.2)">Rgba</mj-button>`),
  "button height text-align vertical-align": one(`<mj-button height="60px" text-align="left" vertical-align="top">Tall</mj-button>`),
  "button align left": one(`<mj-button align="left">Left</mj-button>`),
  "button align right": one(`<mj-button align="right">Right</mj-button>`),
  "button padding": one(`<mj-button padding="0px 0px 20px">Padded</mj-button>`),
  "button padding sides": one(`<mj-button padding-top="0px" padding-bottom="30px" padding-left="5px" padding-right="5px">Padded</mj-button>`),
  "button container background": one(`<mj-button container-background-color="#fafafa">Bg</mj-button>`),
  "button content markup": one(`<mj-button href="https://example.com/">
      <img src="https://example.com/icon.png" width="16" height="16" style="vertical-align:middle" alt="" /> Buy &amp; save
    </mj-button>`),

  // mj-divider
  "divider default": one(`<mj-divider />`),
  "divider width percent": one(`<mj-divider width="50%" />`),
  "divider width odd percent": one(`<mj-divider width="33%" padding="10px 17px" />`),
  "divider width px": one(`<mj-divider width="300px" />`),
  "divider align left": one(`<mj-divider width="50%" align="left" />`),
  "divider align right": one(`<mj-divider width="50%" align="right" />`),
  "divider align center": one(`<mj-divider width="200px" align="center" />`),
  "divider border": one(`<mj-divider border-color="#ccc" border-style="dashed" border-width="1px" />`),
  "divider dotted thick": one(`<mj-divider border-style="dotted" border-width="10px" border-color="#ff0000" />`),
  "divider padding": one(`<mj-divider padding="0px" />`),
  "divider padding sides": one(`<mj-divider padding="5px 10px 15px 20px" padding-left="40px" />`),
  "divider rgba color": one(`<mj-divider border-color="rgba(0,0,0,0.25)" border-width="2px" width="90%" />`),
  "divider css-class": one(`<mj-divider css-class="rule" />`),
  "divider container background": one(`<mj-divider container-background-color="#eeeeee" />`),

  // columns: the container width changes what the components compute
  "two columns": `<mj-section>
    <mj-column><mj-image src="https://example.com/a.png" /><mj-divider width="80%" /><mj-button width="200px">A</mj-button></mj-column>
    <mj-column><mj-text height="30px">B</mj-text><mj-image src="https://example.com/b.png" width="400px" href="https://example.com/" /></mj-column>
  </mj-section>`,
  "three columns": `<mj-section>
    <mj-column><mj-image src="https://example.com/a.png" fluid-on-mobile="true" /><mj-divider /></mj-column>
    <mj-column><mj-divider width="50%" align="left" padding="0px" /><mj-button width="150px" border="3px solid #000">B</mj-button></mj-column>
    <mj-column><mj-text align="center">C</mj-text><mj-image src="https://example.com/c.png" padding="0px" border="1px solid #000" /></mj-column>
  </mj-section>`,
  "column widths": `<mj-section>
    <mj-column width="30%"><mj-image src="https://example.com/a.png" /><mj-divider width="100px" /></mj-column>
    <mj-column width="70%"><mj-image src="https://example.com/b.png" width="300px" /><mj-divider width="25%" /><mj-button width="50%">Half</mj-button></mj-column>
  </mj-section>`,
  "column px widths and padding": `<mj-section padding="0px 20px">
    <mj-column width="180px" padding="10px"><mj-image src="https://example.com/a.png" /><mj-divider /></mj-column>
    <mj-column width="380px" border="2px solid #000"><mj-image src="https://example.com/b.png" /><mj-divider width="60%" /><mj-button width="300px">Go</mj-button></mj-column>
  </mj-section>`,
  "full page mix": `<mj-section><mj-column>
    <mj-image src="https://example.com/logo.png" width="120px" href="https://example.com/" alt="Logo" />
    <mj-text font-size="24px" align="center"><h1 style="margin:0">Hello</h1></mj-text>
    <mj-divider border-width="1px" border-color="#dddddd" />
    <mj-button href="https://example.com/buy" background-color="#e85034">Buy now</mj-button>
  </mj-column></mj-section>`,
};
