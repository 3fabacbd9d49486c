// A page's own style sheet, for the pages the server's hints may not name: the server links
// a route's style sheets in the page it sends (crates/server/src/assets/page.rs), and a page
// reached by another route, or served by a server that does not know it yet, links its own
// here. Linked once, from the module's own (versioned) address.

/**
 * Links the style sheet at `href` (absolute, e.g. `new URL('./x.css', import.meta.url).href`)
 * unless the page has it already.
 * @param {string} href
 */
export function ensureStyle(href) {
  const has = [...document.querySelectorAll('link[rel="stylesheet"]')]
    .some((link) => /** @type {HTMLLinkElement} */ (link).href === href);
  if (has) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  document.head.append(link);
}
