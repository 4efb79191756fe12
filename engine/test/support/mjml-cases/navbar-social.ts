/** Differential cases for mj-navbar and mj-social: fragments that go inside `<mj-body>`. */

const one = (inner: string): string => `<mj-section><mj-column>${inner}</mj-column></mj-section>`;

const links = `<mj-navbar-link href="/about">About</mj-navbar-link><mj-navbar-link href="/blog">Blog</mj-navbar-link><mj-navbar-link href="/contact">Contact</mj-navbar-link>`;

export const cases: Record<string, string> = {
  // mj-navbar
  "navbar default": one(`<mj-navbar>${links}</mj-navbar>`),
  "navbar single link": one(`<mj-navbar><mj-navbar-link href="https://example.com/">Home</mj-navbar-link></mj-navbar>`),
  "navbar empty": one(`<mj-navbar></mj-navbar>`),
  "navbar align left": one(`<mj-navbar align="left">${links}</mj-navbar>`),
  "navbar align center": one(`<mj-navbar align="center">${links}</mj-navbar>`),
  "navbar align right": one(`<mj-navbar align="right">${links}</mj-navbar>`),
  "navbar base-url": one(`<mj-navbar base-url="https://example.com">${links}</mj-navbar>`),
  "navbar base-url link without href": one(`<mj-navbar base-url="https://example.com"><mj-navbar-link>No href</mj-navbar-link></mj-navbar>`),
  "navbar link without href": one(`<mj-navbar><mj-navbar-link>No href</mj-navbar-link></mj-navbar>`),
  "navbar css-class": one(`<mj-navbar css-class="nav">${links}</mj-navbar>`),
  "navbar link css-class": one(
    `<mj-navbar><mj-navbar-link href="/a" css-class="first">A</mj-navbar-link><mj-navbar-link href="/b" css-class="second hide-mobile">B</mj-navbar-link></mj-navbar>`,
  ),
  "navbar padding": one(`<mj-navbar padding="10px 20px" padding-left="5px">${links}</mj-navbar>`),
  "navbar link typography": one(
    `<mj-navbar><mj-navbar-link href="/a" font-family="Arial, sans-serif" font-size="16px" font-style="italic" font-weight="700" color="#abc" text-transform="none" letter-spacing="2px" text-decoration="underline" line-height="30px">Styled</mj-navbar-link></mj-navbar>`,
  ),
  "navbar link negative letter-spacing": one(
    `<mj-navbar><mj-navbar-link href="/a" letter-spacing="-0.1em" line-height="150%">Tight</mj-navbar-link></mj-navbar>`,
  ),
  "navbar link padding": one(
    `<mj-navbar><mj-navbar-link href="/a" padding="5px">A</mj-navbar-link><mj-navbar-link href="/b" padding="0px 8px" padding-top="12px" padding-bottom="2px">B</mj-navbar-link><mj-navbar-link href="/c" padding-left="20px" padding-right="0px">C</mj-navbar-link></mj-navbar>`,
  ),
  "navbar link href target rel name": one(
    `<mj-navbar base-url="https://example.com"><mj-navbar-link href="/a?x=1&amp;y=2" target="_self" rel="noopener" name="nav-a">A &amp; B</mj-navbar-link><mj-navbar-link href="/b" target="_top">B</mj-navbar-link></mj-navbar>`,
  ),
  "navbar link markup content": one(`<mj-navbar><mj-navbar-link href="/a"><b>Bold</b> and <i>italic</i></mj-navbar-link></mj-navbar>`),
  "navbar link content whitespace": one(`<mj-navbar><mj-navbar-link href="/a">
        Spaced   out
      </mj-navbar-link></mj-navbar>`),
  "navbar ico attributes without hamburger": one(`<mj-navbar ico-color="#ff0000" ico-font-size="20px" ico-align="left">${links}</mj-navbar>`),
  "navbar two navbars": one(`<mj-navbar align="left">${links}</mj-navbar><mj-navbar align="right" base-url="https://b.example">${links}</mj-navbar>`),
  "navbar with text sibling": one(`<mj-text>Before</mj-text><mj-navbar>${links}</mj-navbar><mj-text>After</mj-text>`),
  "navbar in two columns": `<mj-section><mj-column><mj-text>Brand</mj-text></mj-column><mj-column><mj-navbar align="right">${links}</mj-navbar></mj-column></mj-section>`,

  // mj-social
  "social default horizontal": one(
    `<mj-social><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element><mj-social-element name="twitter" href="https://example.com/">Twitter</mj-social-element></mj-social>`,
  ),
  "social vertical": one(
    `<mj-social mode="vertical"><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element><mj-social-element name="x" href="https://example.com/">X</mj-social-element><mj-social-element name="instagram" href="https://instagram.com/me">Instagram</mj-social-element></mj-social>`,
  ),
  "social vertical icons only": one(
    `<mj-social mode="vertical" align="left"><mj-social-element name="linkedin" href="https://example.com/" /><mj-social-element name="youtube" href="https://youtube.com/me" /></mj-social>`,
  ),
  "social many networks": one(
    `<mj-social><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element><mj-social-element name="x" href="https://example.com/">X</mj-social-element><mj-social-element name="twitter" href="https://example.com/">Twitter</mj-social-element><mj-social-element name="instagram" href="https://instagram.com/me">Instagram</mj-social-element><mj-social-element name="linkedin" href="https://example.com/">LinkedIn</mj-social-element><mj-social-element name="youtube" href="https://youtube.com/me">YouTube</mj-social-element><mj-social-element name="pinterest" href="https://example.com/">Pin</mj-social-element><mj-social-element name="github" href="https://github.com/me">GitHub</mj-social-element></mj-social>`,
  ),
  "social noshare networks": one(
    `<mj-social><mj-social-element name="facebook-noshare" href="https://facebook.com/me">Facebook</mj-social-element><mj-social-element name="x-noshare" href="https://x.com/me">X</mj-social-element><mj-social-element name="linkedin-noshare" href="https://linkedin.com/in/me">LinkedIn</mj-social-element></mj-social>`,
  ),
  "social icons only": one(
    `<mj-social><mj-social-element name="facebook" href="https://example.com/" /><mj-social-element name="instagram" href="https://instagram.com/me"></mj-social-element><mj-social-element name="youtube" href="https://youtube.com/me" /></mj-social>`,
  ),
  "social without href": one(`<mj-social><mj-social-element name="facebook">Facebook</mj-social-element><mj-social-element name="linkedin" /></mj-social>`),
  "social custom network": one(
    `<mj-social><mj-social-element name="mastodon" src="https://example.com/mastodon.png" background-color="#6364ff" href="https://mastodon.social/@me" alt="Mastodon">Mastodon</mj-social-element></mj-social>`,
  ),
  "social custom without name": one(
    `<mj-social><mj-social-element src="https://example.com/icon.png" background-color="#123" href="https://example.com/" /></mj-social>`,
  ),
  "social override network src and color": one(
    `<mj-social><mj-social-element name="facebook" src="https://example.com/fb.png" background-color="#000" href="https://example.com/">Facebook</mj-social-element></mj-social>`,
  ),
  "social alt and title": one(
    `<mj-social><mj-social-element name="x" href="https://x.com/me" alt="Follow us on X" title="X">X</mj-social-element><mj-social-element name="facebook" href="https://facebook.com/me" alt="">Facebook</mj-social-element></mj-social>`,
  ),
  "social icon-size": one(
    `<mj-social icon-size="32px"><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element><mj-social-element name="x" href="https://example.com/" icon-size="24px">X</mj-social-element></mj-social>`,
  ),
  "social icon-height": one(`<mj-social icon-size="30px" icon-height="20px"><mj-social-element name="youtube" href="https://youtube.com/me" /></mj-social>`),
  "social icon-padding": one(
    `<mj-social icon-padding="6px"><mj-social-element name="facebook" href="https://example.com/" /><mj-social-element name="x" href="https://example.com/" icon-padding="2px 4px" /></mj-social>`,
  ),
  "social inner-padding": one(
    `<mj-social inner-padding="10px"><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element><mj-social-element name="x" href="https://example.com/" padding="2px">X</mj-social-element></mj-social>`,
  ),
  "social text-padding": one(
    `<mj-social text-padding="0px 8px"><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element></mj-social>`,
  ),
  "social border-radius": one(
    `<mj-social border-radius="50%"><mj-social-element name="facebook" href="https://example.com/" /><mj-social-element name="x" href="https://example.com/" border-radius="0px" /></mj-social>`,
  ),
  "social border": one(`<mj-social border="1px solid #ccc"><mj-social-element name="instagram" href="https://instagram.com/me" /></mj-social>`),
  "social align left": one(`<mj-social align="left"><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element></mj-social>`),
  "social align right": one(`<mj-social align="right"><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element></mj-social>`),
  "social align center": one(
    `<mj-social align="center"><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element></mj-social>`,
  ),
  "social vertical align right": one(
    `<mj-social mode="vertical" align="right"><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element></mj-social>`,
  ),
  "social typography": one(
    `<mj-social font-family="Arial, sans-serif" font-size="15px" font-weight="bold" font-style="italic" color="#ff0000" line-height="30px" text-decoration="underline"><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element><mj-social-element name="x" color="#00ff00" font-size="11px">X</mj-social-element></mj-social>`,
  ),
  "social padding container-background-color": one(
    `<mj-social padding="0px" padding-top="12px" container-background-color="#eeeeee"><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element></mj-social>`,
  ),
  "social element padding and vertical-align": one(
    `<mj-social><mj-social-element name="facebook" href="https://example.com/" padding="8px" padding-left="0px" vertical-align="top">Facebook</mj-social-element></mj-social>`,
  ),
  "social element align": one(
    `<mj-social mode="vertical"><mj-social-element name="facebook" href="https://example.com/" align="right">Facebook</mj-social-element></mj-social>`,
  ),
  "social icon-position right": one(
    `<mj-social><mj-social-element name="facebook" href="https://example.com/" icon-position="right">Facebook</mj-social-element><mj-social-element name="x" icon-position="right">X</mj-social-element></mj-social>`,
  ),
  "social element rel target css-class": one(
    `<mj-social><mj-social-element name="facebook" href="https://example.com/?a=1&amp;b=2" rel="noopener" target="_self" css-class="fb">Facebook</mj-social-element></mj-social>`,
  ),
  "social element srcset sizes": one(
    `<mj-social><mj-social-element name="facebook" href="https://example.com/" srcset="https://example.com/fb.png 1x, https://example.com/fb@2x.png 2x" sizes="20px">Facebook</mj-social-element></mj-social>`,
  ),
  "social element markup content": one(
    `<mj-social><mj-social-element name="facebook" href="https://example.com/"><b>Like</b> us</mj-social-element></mj-social>`,
  ),
  "social empty": one(`<mj-social></mj-social>`),
  "social with text sibling": one(
    `<mj-text>Follow us</mj-text><mj-social><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element></mj-social><mj-text>Thanks</mj-text>`,
  ),

  // both
  "navbar and social": one(
    `<mj-navbar base-url="https://example.com">${links}</mj-navbar><mj-social mode="vertical"><mj-social-element name="facebook" href="https://example.com/">Facebook</mj-social-element></mj-social>`,
  ),
};
