/*! lessonsearch.js: the course search box and glossary tooltips for any web page.
 *
 * One file, no build step, no framework. Add it to a page:
 *
 *   <div data-lessonsearch></div>
 *   <script src="https://SEARCH-HOST/static/lessonsearch.js" defer></script>
 *
 * or use the custom element <lesson-search></lesson-search> instead of the div. The service is
 * found from this script's own URL (…/static/lessonsearch.js → …/); a data-api="https://…/"
 * attribute on the box or on the script tag overrides it.
 *
 * Options (data attributes on the box; on the script tag they apply to every box and to the
 * tooltips; <lesson-search> also takes them without the data- prefix, as in
 * <lesson-search placeholder="…" limit="3">, the data- one winning when both are there; a
 * div and the script tag read only data-):
 *
 *   data-placeholder  "Search the course"  the box's placeholder and accessible label
 *   data-limit        5                    results shown while typing (1 to 20)
 *   data-debounce     150                  milliseconds of quiet typing before searching
 *   data-target       same                 open links in the "same" tab or a "new" one
 *   data-recent       on                   remember recent searches in localStorage ("off")
 *   data-theme        auto                 "light" or "dark"; auto follows the reader's system
 *   data-api          this server          the service's URL, when not the server of this script
 *
 * Glossary tooltips: mark an element with data-lessonsearch-terms and the glossary's terms in
 * its text are underlined; hovering or focusing one shows its definition and a link to the
 * glossary. The attribute's value is "first" (default: each term's first occurrence) or "all".
 * A first occurrence is a link to its glossary entry and a Tab stop (Enter opens the entry);
 * the others ("all") answer the pointer only.
 * Code, pre, links, headings, form controls and [data-lessonsearch-skip] are left alone. When
 * done the element receives a "lessonsearch:terms" event whose detail counts the work.
 *
 * Keys: "/" or Ctrl/Cmd-K focuses the first box; ↑ ↓ choose, Enter opens, Escape closes.
 * Colours and sizes are CSS custom properties, set on the box or any ancestor: --ls-bg,
 * --ls-fg, --ls-muted, --ls-border, --ls-accent, --ls-link, --ls-hover, --ls-mark,
 * --ls-mark-fg, --ls-radius, --ls-font, --ls-font-size, --ls-z-index.
 *
 * Safety: every text from the service is inserted as text. Snippets, and the lesson title a hit
 * was found through (matched_in_title), are the only HTML (the server's escaped text plus
 * <mark>), and only their text and <mark> elements are kept.
 */
(function () {
  "use strict";
  if (window.LessonSearch) return; // the script was included twice

  // --- Options ------------------------------------------------------------------------------

  const SCRIPT = document.currentScript || document.querySelector('script[src*="lessonsearch.js"]');
  const DEFAULTS = {
    placeholder: "Search the course",
    limit: "5",
    debounce: "150",
    target: "same",
    recent: "on",
    theme: "auto",
  };
  const MAX_TERMS_SHOWN = 3;
  const MAX_RECENT = 5;
  const SEARCH_TIMEOUT_MS = 10000; // a search still unanswered is given up as unavailable
  const HAS_WORD = /[\p{L}\p{N}]/u; // a letter or digit: what the service searches for
  // A search lasting this long shows the loading bar and "Searching…" over the last results, and
  // says so aloud; a quicker answer simply replaces the results, so typing does not flicker.
  const SLOW_SEARCH_MS = 1000;
  const UNAVAILABLE = "Search is unavailable right now. Try again in a moment.";
  const FOUND_IN_TITLE = "Found in the lesson’s title: "; // the results page's words (search.html)
  const SKIP_SELECTOR = "a, code, pre, kbd, samp, script, style, noscript, template, textarea, " +
    "input, select, option, button, svg, math, iframe, h1, h2, h3, h4, h5, h6, [contenteditable], " +
    "[data-lessonsearch-skip], [data-lessonsearch], lesson-search, .lessonsearch-term";

  /** An option for `el`: its data-NAME, its NAME (custom element only), the script's, the default. */
  function option(el, name) {
    const plain = el && el.localName === "lesson-search" ? el.getAttribute(name) : null;
    const value = (el && el.getAttribute("data-" + name)) || plain ||
      (SCRIPT && SCRIPT.getAttribute("data-" + name));
    return value || DEFAULTS[name] || "";
  }

  function numberOption(el, name, low, high) {
    const value = parseInt(option(el, name), 10);
    return Math.min(high, Math.max(low, isNaN(value) ? parseInt(DEFAULTS[name], 10) : value));
  }

  /** The service's root URL, ending in "/". */
  function apiBase(el) {
    const given = option(el, "api");
    if (given) return new URL(given, document.baseURI).href.replace(/\/?$/, "/");
    if (SCRIPT && SCRIPT.src) return new URL("..", SCRIPT.src).href; // …/static/x.js → …/
    return new URL("/", location.href).href;
  }

  // --- Small helpers ------------------------------------------------------------------------

  /** A new element with properties (className, id, textContent…) and attributes (attrs). */
  function make(tag, props, attrs) {
    const el = document.createElement(tag);
    Object.assign(el, props || {});
    for (const [name, value] of Object.entries(attrs || {})) el.setAttribute(name, value);
    return el;
  }

  /** A snippet's nodes: its text and <mark> elements; every other tag is dropped. */
  function snippetFragment(html) {
    const out = document.createDocumentFragment();
    let parsed = null;
    try {
      const template = document.createElement("template"); // inert: nothing loads or runs
      template.innerHTML = html;
      parsed = template.content;
    } catch (err) {
      // A host page enforcing Trusted Types refuses innerHTML; split on <mark> by hand instead.
      html.split(/(<\/?mark>)/i).reduce((marked, part) => {
        if (/^<mark>$/i.test(part)) return true;
        if (/^<\/mark>$/i.test(part)) return false;
        const text = decodeEntities(part.replace(/<[^>]*>/g, ""));
        out.append(marked ? make("mark", { textContent: text }) : withBreaks(text));
        return marked;
      }, false);
      return out;
    }
    (function keep(from) {
      for (const node of from.childNodes) {
        if (node.nodeType === Node.TEXT_NODE) out.append(withBreaks(node.data));
        else if (node.nodeName === "MARK") out.append(make("mark", { textContent: node.textContent }));
        else if (node.nodeType === Node.ELEMENT_NODE) keep(node);
      }
    })(parsed);
    return out;
  }

  /**
   * Text with each line break of a code snippet (the server keeps them, "\n") shown as a ↵
   * between the lines, on one line: the option shows two lines at most, and lines stacked
   * there would hide the marked one. The sign is for the eye; a screen reader hears the
   * lines apart by the spaces around it.
   */
  function withBreaks(text) {
    const out = document.createDocumentFragment();
    text.split("\n").forEach((line, i) => {
      if (i) out.append(" ", make("span", { className: "br", textContent: "↵" }, { "aria-hidden": "true" }), " ");
      out.append(line);
    });
    return out;
  }

  function decodeEntities(text) {
    const named = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    return text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (whole, name) => {
      if (name[0] !== "#") return named[name.toLowerCase()];
      const code = name[1] === "x" || name[1] === "X"
        ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    });
  }

  /** localStorage that may be missing or refuse (private modes, sandboxed frames). */
  const storage = {
    read(key) {
      try { return JSON.parse(window.localStorage.getItem(key) || "[]"); } catch (err) { return []; }
    },
    write(key, value) {
      try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (err) { /* ignore */ }
    },
  };

  /** Put a stylesheet into a document or shadow root without inline styles (CSP allows it). */
  function adoptStyles(root, css) {
    if ("adoptedStyleSheets" in Document.prototype && "replaceSync" in CSSStyleSheet.prototype) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    } else {
      (root.head || root).append(make("style", { textContent: css }));
    }
  }

  // --- Talking to the service ---------------------------------------------------------------

  class ServiceError extends Error {
    constructor(status, message) { super(message); this.status = status; }
  }

  async function getJSON(url, signal) {
    const response = await fetch(url, { signal, credentials: "omit", headers: { Accept: "application/json" } });
    const body = await response.json().catch(() => null);
    if (!response.ok) throw new ServiceError(response.status, (body && body.error) || response.statusText);
    return body;
  }

  /**
   * The URL if a link may go there: http:, https: or a relative link. Anything else
   * (javascript:, data:) gives null, and the option is no link: a lesson URL runs on this page
   * when clicked. The URL parser reads the scheme as the browser will (" java\tscript:").
   */
  function webLink(url) {
    try {
      return /^https?:$/.test(new URL(url, "https://relative.invalid/").protocol) ? url : null;
    } catch (err) {
      return null;
    }
  }

  function endpoint(base, path, query) {
    const url = new URL(path, base);
    for (const [name, value] of Object.entries(query || {})) url.searchParams.set(name, value);
    return url.href;
  }

  const glossaries = new Map(); // base URL → Promise of {terms, byAnchor}: one fetch per page
  const loadedGlossaries = new Map(); // base URL → {terms, byAnchor}, once it has arrived

  function glossary(base) {
    if (!glossaries.has(base)) {
      glossaries.set(base, getJSON(endpoint(base, "api/terms")).then((body) => {
        const terms = body.terms || [];
        const known = { terms, byAnchor: new Map(terms.map((t) => [t.anchor, t])) };
        loadedGlossaries.set(base, known);
        return known;
      }));
    }
    return glossaries.get(base);
  }

  // --- Styles -------------------------------------------------------------------------------

  const THEME = `
    --_bg: var(--ls-bg, #fff); --_fg: var(--ls-fg, #1d1f21); --_muted: var(--ls-muted, #5b6169);
    --_border: var(--ls-border, #c9ced4); --_accent: var(--ls-accent, #1a5fb4);
    --_link: var(--ls-link, #1a5fb4); --_hover: var(--ls-hover, #eef3fb);
    --_mark: var(--ls-mark, #fff1a8); --_mark-fg: var(--ls-mark-fg, inherit);
    --_radius: var(--ls-radius, 8px); --_shadow: 0 8px 28px rgb(0 0 0 / 0.16);`;
  const DARK = `
    --_bg: var(--ls-bg, #1f2226); --_fg: var(--ls-fg, #e6e7e9); --_muted: var(--ls-muted, #a2a8b1);
    --_border: var(--ls-border, #3a3f46); --_accent: var(--ls-accent, #8ab4f8);
    --_link: var(--ls-link, #8ab4f8); --_hover: var(--ls-hover, #2a3340);
    --_mark: var(--ls-mark, #5c4d00); --_mark-fg: var(--ls-mark-fg, #fff8d6);
    --_shadow: 0 8px 28px rgb(0 0 0 / 0.5);`;
  const THEMED = `
    :host { ${THEME} }
    @media (prefers-color-scheme: dark) { :host(:not([data-theme="light"]):not([theme="light"])) { ${DARK} } }
    :host([data-theme="dark"]), :host([theme="dark"]) { ${DARK} }
    .vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    mark { background: var(--_mark); color: var(--_mark-fg); border-radius: 2px; padding: 0 0.1em; }
    a { color: var(--_link); }
    :focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }`;

  const BOX_CSS = THEMED + `
    :host { display: block; position: relative; max-width: 100%; }
    .ls { all: initial; display: block; position: relative; color: var(--_fg);
      font-family: var(--ls-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
      font-size: var(--ls-font-size, 16px); line-height: 1.45; }
    .ls *, .ls *::before, .ls *::after { box-sizing: border-box; }
    .field { display: flex; align-items: center; gap: 0.5em; padding: 0 0.75em; min-height: 2.75em;
      background: var(--_bg); border: 1px solid var(--_border); border-radius: var(--_radius); }
    .field:focus-within { border-color: var(--_accent);
      box-shadow: 0 0 0 3px color-mix(in srgb, var(--_accent) 30%, transparent); }
    .icon { flex: none; width: 1.1em; height: 1.1em; color: var(--_muted); }
    input { all: unset; flex: 1 1 auto; min-width: 0; padding: 0.6em 0; font: inherit; color: var(--_fg); }
    input::placeholder { color: var(--_muted); opacity: 1; }
    input:focus-visible { outline: none; }
    .hint { flex: none; font: 0.8em/1.6 ui-monospace, monospace; color: var(--_muted); padding: 0 0.45em;
      border: 1px solid var(--_border); border-radius: 4px; }
    .field:focus-within .hint { display: none; }
    @media (hover: none) { .hint { display: none; } }
    .panel { position: absolute; z-index: var(--ls-z-index, 2147483000); left: 0; right: 0; top: calc(100% + 4px);
      background: var(--_bg); border: 1px solid var(--_border); border-radius: var(--_radius);
      box-shadow: var(--_shadow); max-height: min(70vh, 34em); overflow-y: auto; overscroll-behavior: contain; }
    .panel[hidden], .state:empty, .notes:empty { display: none; }
    .panel.busy::before { content: ""; position: sticky; top: 0; display: block; height: 2px;
      background: linear-gradient(90deg, transparent, var(--_accent), transparent) 0 0 / 50% 100% no-repeat;
      animation: sweep 0.9s linear infinite; }
    @keyframes sweep { from { background-position: -50% 0; } to { background-position: 150% 0; } }
    @media (prefers-reduced-motion: reduce) { .panel.busy::before { animation: none; background-size: 100% 100%; } }
    .state { padding: 0.75em 1em; color: var(--_muted); }
    [role=listbox][aria-busy="true"], .panel.busy .notes { opacity: 0.6; }
    .notes { padding: 0.6em 1em; border-bottom: 1px solid var(--_border); font-size: 0.9em; color: var(--_muted); }
    .note { margin: 0; }
    .note + .note { margin-top: 0.3em; }
    .q { font-weight: 600; color: var(--_fg); }
    .offer:not(:last-child) { border-bottom: 1px solid var(--_border); }
    [data-kind="did-you-mean"] .title { font-weight: 400; color: var(--_fg); }
    [data-kind="did-you-mean"] .q { color: var(--_link); text-decoration: underline; text-underline-offset: 0.15em; }
    .state.error { color: var(--_fg); }
    .label { padding: 0.7em 1em 0.2em; font-size: 0.75em; font-weight: 600; letter-spacing: 0.06em;
      text-transform: uppercase; color: var(--_muted); }
    .option { display: block; padding: 0.5em 1em 0.5em calc(1em - 3px); border-left: 3px solid transparent;
      color: var(--_fg); text-decoration: none; cursor: pointer; overflow-wrap: anywhere; }
    .option:hover { background: var(--_hover); }
    .option[aria-selected="true"] { background: var(--_hover); border-left-color: var(--_accent); }
    .title { display: block; font-weight: 600; color: var(--_link); }
    .found-in { display: block; font-size: 0.9em; color: var(--_muted); }
    .br { opacity: 0.7; }
    .line { font-size: 0.9em; color: var(--_muted); overflow: hidden;
      display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; }
    .all { position: sticky; bottom: 0; background: var(--_bg); border-top: 1px solid var(--_border); }
    .all .option { padding-top: 0.65em; padding-bottom: 0.65em; }`;

  const TIP_CSS = THEMED + `
    :host { all: initial; position: fixed; z-index: var(--ls-z-index, 2147483001); top: 0; left: 0; }
    :host([hidden]) { display: none; }
    .tip { box-sizing: border-box; width: max-content; max-width: min(22rem, calc(100vw - 16px));
      padding: 0.6em 0.8em; background: var(--_bg); color: var(--_fg); border: 1px solid var(--_border);
      border-radius: var(--_radius); box-shadow: var(--_shadow); overflow-wrap: anywhere;
      font: 15px/1.45 var(--ls-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif); }
    .name { display: block; font-weight: 600; }
    .def { display: block; margin: 0.2em 0 0.4em; }
    .more { font-size: 0.9em; }`;

  const TERM_CSS = `
    .lessonsearch-term { text-decoration: underline dotted; text-underline-offset: 0.2em; cursor: help; }
    .lessonsearch-term:focus-visible { outline: 2px solid var(--ls-accent, #1a5fb4); outline-offset: 2px;
      border-radius: 2px; }`;

  // --- The search box -----------------------------------------------------------------------

  const boxes = [];
  let boxCount = 0;

  class SearchBox {
    constructor(host) {
      this.host = host;
      this.base = apiBase(host);
      this.limit = numberOption(host, "limit", 1, 20);
      this.delay = numberOption(host, "debounce", 0, 2000);
      this.newTab = option(host, "target") === "new";
      this.remember = option(host, "recent") !== "off";
      this.recentKey = "lessonsearch.recent " + this.base;
      this.id = "ls" + ++boxCount + "-";
      this.options = []; // the rendered option elements, in order
      this.active = -1;
      this.timer = 0;
      this.nothingFor = null; // the query on show when it found nothing; see close()
      this.heard = []; // the notices on show, already announced; see showResults()
      this.controller = null;
      this.asked = 0; // numbers each search; a late answer to an older one is dropped
      const theme = option(host, "theme");
      if (theme !== "auto" && !host.hasAttribute("data-theme")) host.setAttribute("data-theme", theme);
      this.build(option(host, "placeholder"));
      boxes.push(this);
    }

    build(placeholder) {
      const root = this.host.shadowRoot || this.host.attachShadow({ mode: "open" });
      adoptStyles(root, BOX_CSS);
      const id = this.id;
      this.input = make("input", { id: id + "input", type: "search", placeholder, autocomplete: "off" }, {
        role: "combobox", "aria-autocomplete": "list", "aria-expanded": "false", "aria-controls": id + "listbox",
        "aria-label": placeholder, enterkeyhint: "search", maxlength: "4096", spellcheck: "false",
      });
      this.listbox = make("div", { id: id + "listbox" }, { role: "listbox", "aria-label": "Search suggestions" });
      this.state = make("div", { className: "state" });
      this.notes = make("div", { className: "notes" }); // how the service read the query
      this.panel = make("div", { className: "panel", hidden: true });
      this.panel.append(this.state, this.notes, this.listbox);
      this.status = make("div", { className: "vh" }, { role: "status", "aria-live": "polite", "aria-atomic": "true" });
      const hint = make("kbd", { className: "hint", textContent: "/" }, { "aria-hidden": "true" });
      const field = make("div", { className: "field" });
      field.append(searchIcon(), this.input, hint);
      const wrapper = make("div", { className: "ls" }, { role: "search" });
      wrapper.append(field, this.panel, this.status);
      root.replaceChildren(wrapper);

      this.input.addEventListener("input", () => this.typed());
      this.input.addEventListener("focus", () => {
        glossary(this.base).catch(() => null); // definitions for completed terms, fetched once
        this.typed(true);
      });
      this.input.addEventListener("keydown", (e) => this.key(e));
      this.panel.addEventListener("mousedown", (e) => e.preventDefault()); // keep focus in the box
      this.listbox.addEventListener("click", (e) => this.clicked(e));
      root.addEventListener("focusout", (e) => { if (!root.contains(e.relatedTarget)) this.close(); });
      document.addEventListener("pointerdown", (e) => {
        if (!e.composedPath().includes(this.host)) this.close();
      });
      // Closing the tab or following a link elsewhere leaves the box without closing it.
      window.addEventListener("pagehide", () => this.reportNothingFound());
    }

    focus() {
      this.input.focus();
      this.input.select();
    }

    // Typing: debounce, then search; a box with no word in it yet (empty, or a quote or a
    // minus begun before the word, which the service would refuse) shows recent searches.
    typed(focusing) {
      clearTimeout(this.timer);
      if (!focusing) this.nothingFor = null; // the words changed: what found nothing is gone
      const text = this.input.value.trim();
      if (!HAS_WORD.test(text)) {
        this.abort();
        this.showRecent();
        return;
      }
      if (focusing && this.shownFor === text) this.open();
      else if (focusing) this.search(text);
      else this.timer = setTimeout(() => this.search(text), this.delay);
    }

    abort() {
      this.asked += 1; // whatever is still on its way is stale now
      if (this.controller) this.controller.abort();
      this.controller = null;
      this.panel.classList.remove("busy");
    }

    /**
     * One search, given up after SEARCH_TIMEOUT_MS: a stalled service or proxy then reads as
     * unavailable instead of "Searching…" for ever, and typing again (or Enter, for the results
     * page) is the retry. A newer search aborts this one first, through abort(). It does not
     * wait for the glossary: a term the typed prefix completes is shown at once, and its
     * definition is added when the glossary arrives (see define()).
     */
    async search(text) {
      this.abort();
      const controller = this.controller = new AbortController();
      const asked = ++this.asked;
      const giveUp = setTimeout(() => controller.abort(), SEARCH_TIMEOUT_MS);
      const slow = setTimeout(() => { if (asked === this.asked) this.stillSearching(); },
        SLOW_SEARCH_MS); // not on every keystroke: a quick answer is shown instead
      if (!this.options.length) this.setState("Searching…");
      this.open();
      try {
        const [found, suggested] = await Promise.all([
          getJSON(endpoint(this.base, "api/search", { q: text, limit: this.limit, typing: 1 }),
            controller.signal), // its last word may be cut short: the reader is typing it
          getJSON(endpoint(this.base, "api/suggest", { q: text }), controller.signal).catch(() => null),
        ]);
        if (asked !== this.asked) return;
        this.showResults(text, found, suggested, loadedGlossaries.get(this.base) || null);
        if (this.options.some((el) => el.awaitingDefinition)) {
          glossary(this.base).then((known) => this.define(known), () => null); // failed: none shown
        }
      } catch (err) {
        if (asked !== this.asked) return; // aborted for a newer search, or the box was emptied
        const message = err instanceof ServiceError && err.status === 400 ? err.message : UNAVAILABLE;
        this.render([]);
        this.setState(message, true);
        this.announce(message);
      } finally {
        clearTimeout(giveUp);
        clearTimeout(slow);
        if (asked === this.asked) this.panel.classList.remove("busy");
      }
    }

    /**
     * A search has lasted: show the loading bar, and say "Searching…" aloud and above the last
     * query's results, which stay listed (dimmed, their list aria-busy) until the answer
     * replaces them in render(). The bar goes when this search ends (search()'s finally) or a
     * newer one starts (abort()).
     */
    stillSearching() {
      this.panel.classList.add("busy");
      this.setState("Searching…");
      this.listbox.setAttribute("aria-busy", "true");
      this.announce("Searching…");
    }

    /**
     * Terms first (with their definitions), then sections, then "see all"; or why there are
     * none. Above them, what the results page says of how the query was read, in its words
     * (notices()): the correction whose results these are, a word searched as another. A
     * correction the results are not for is offered as the results page offers it, "Did you
     * mean", as the first option, which searches it in the box.
     *
     * The live region says a notice once, with the first results it comes with: the next
     * keystrokes' results ("embedder m", "embedder mo"…) keep it on show but say only their
     * counts. A notice that goes and comes back is new again.
     */
    showResults(text, found, suggested, known) {
      const terms = matchingTerms(found, suggested, known);
      const results = found.results || [];
      const { notes, offer } = notices(text, found);
      const groups = [];
      if (offer) {
        const ask = this.actionOption(offer, () => this.searchFor(found.suggestion), "did-you-mean");
        groups.push({ className: "offer", options: [ask] });
      }
      if (terms.length) groups.push({ label: "Terms", options: terms.map((t) => this.termOption(t)) });
      if (results.length) {
        groups.push({ label: "Results", options: results.map((r) => this.resultOption(r)) });
        const all = results.length < found.total ? "See all " + found.total + " results" : "Open the full results page";
        const href = endpoint(this.base, "search", { q: text });
        groups.push({ className: "all", options: [this.linkOption(href, all, null, "all")] });
      }
      const said = [...notes, ...(offer ? [offer] : [])].map((parts) => parts.join(""));
      const fresh = said.filter((notice) => !this.heard.includes(notice));
      this.shownFor = text;
      this.render(groups, notes);
      this.heard = said;
      const none = terms.length || results.length ? "" : "No results for “" + text + "”.";
      this.nothingFor = none ? text : null;
      this.setState(offer ? "" : none);
      const counts = none || describeCounts(terms.length, results.length, found.total);
      this.announce(none ? [none, ...fresh].join(" ") : [...fresh, counts].join(" "));
    }

    showRecent() {
      const recent = this.remember ? storage.read(this.recentKey) : [];
      if (!recent.length) { this.close(); this.render([]); this.shownFor = null; return; }
      const clear = this.actionOption("Clear recent searches", () => {
        storage.write(this.recentKey, []);
        this.close();
        this.announce("Recent searches cleared.");
      });
      const options = recent.map((q) => this.actionOption(q, () => this.searchFor(q), "recent"));
      this.render([{ label: "Recent searches", options: [...options, clear] }]);
      this.setState("");
      this.shownFor = "";
      this.open();
    }

    /**
     * The glossary has arrived after the results: each term option still without its
     * definition gets it, in place. The options stay the same elements, so the reader's choice
     * stays chosen, and their counts are the same, so nothing is announced again.
     */
    define(known) {
      for (const el of this.options) {
        if (!el.awaitingDefinition) continue;
        const entry = known.byAnchor.get(el.awaitingDefinition);
        const definition = (entry && entry.definition) || "No definition yet.";
        el.append(make("span", { className: "line", textContent: definition }));
        el.awaitingDefinition = null;
      }
    }

    // The options: links to a term or a section, or actions that run a search.
    termOption(t) {
      const href = endpoint(this.base, "glossary/" + encodeURIComponent(t.anchor));
      // "te" completes benchmark through its alias "test set": show why it is offered
      const title = t.matched ? t.term + " (" + t.matched + ")" : t.term;
      if (t.definition === undefined) { // the glossary is still on its way, or never came
        const el = this.linkOption(href, title, null, "term");
        el.awaitingDefinition = t.anchor;
        return el;
      }
      return this.linkOption(href, title, t.definition || "No definition yet.", "term");
    }

    /**
     * A section: its lesson › headings, why it was found when only its lesson's title holds
     * the query's words (foundInTitle()), and its snippet.
     */
    resultOption(r) {
      const path = [r.lesson_title, ...(r.heading_path || [])].filter((x, i, all) => x && x !== all[i - 1]);
      const el = this.linkOption(webLink(r.url), path.join(" › "), null, "result");
      if (r.matched_in_title) el.append(foundInTitle(r.matched_in_title));
      el.append(make("span", { className: "line" }));
      el.lastChild.append(snippetFragment(r.snippet || ""));
      return el;
    }

    linkOption(href, title, line, kind) {
      const el = make("a", href ? { className: "option", href } : { className: "option" },
        optionAttributes(kind));
      if (href && this.newTab) Object.assign(el, { target: "_blank", rel: "noopener" });
      el.append(make("span", { className: "title", textContent: title }));
      if (line) el.append(make("span", { className: "line", textContent: line }));
      return el;
    }

    /** An option that runs `run`; its text is a string, or a notice's parts (quotedText()). */
    actionOption(text, run, kind) {
      const el = make("div", { className: "option" }, optionAttributes(kind || "action"));
      const title = make("span", { className: "title" });
      if (Array.isArray(text)) title.append(quotedText(text)); else title.textContent = text;
      el.append(title);
      el.run = run;
      return el;
    }

    searchFor(text) {
      this.input.value = text;
      this.input.focus();
      this.search(text);
    }

    /** The options, in their groups, and the notices above them (none unless given). */
    render(groups, notes) {
      this.heard = [];
      this.notes.replaceChildren(...(notes || []).map((parts) => {
        const note = make("p", { className: "note" });
        note.append(quotedText(parts));
        return note;
      }));
      this.options = [];
      this.active = -1;
      this.input.removeAttribute("aria-activedescendant");
      this.listbox.removeAttribute("aria-busy");
      const children = groups.map((group, g) => {
        const box = make("div", { className: group.className || "" }, { role: "group" });
        if (group.label) {
          const id = this.id + "g" + g;
          box.append(make("div", { className: "label", id, textContent: group.label }, { role: "presentation" }));
          box.setAttribute("aria-labelledby", id);
        }
        for (const el of group.options) {
          el.id = this.id + "opt" + this.options.length;
          this.options.push(el);
          box.append(el);
        }
        return box;
      });
      this.listbox.replaceChildren(...children);
    }

    setState(text, isError) {
      this.state.textContent = text;
      this.state.classList.toggle("error", !!isError);
    }

    announce(text) {
      this.status.textContent = text;
    }

    open() {
      this.panel.hidden = false;
      this.input.setAttribute("aria-expanded", "true");
    }

    close() {
      clearTimeout(this.timer);
      this.reportNothingFound();
      this.panel.hidden = true;
      this.input.setAttribute("aria-expanded", "false");
      this.highlight(-1);
    }

    highlight(index) {
      if (this.options[this.active]) this.options[this.active].setAttribute("aria-selected", "false");
      this.active = index;
      const el = this.options[index];
      if (!el) { this.input.removeAttribute("aria-activedescendant"); return; }
      el.setAttribute("aria-selected", "true");
      this.input.setAttribute("aria-activedescendant", el.id);
      el.scrollIntoView({ block: "nearest" });
    }

    // Keys in the box: the combobox pattern (focus stays in the input).
    key(e) {
      const count = this.options.length;
      const isOpen = !this.panel.hidden;
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        if (!isOpen) { this.typed(true); return; }
        if (!count) return;
        const step = e.key === "ArrowDown" ? 1 : -1;
        this.highlight(this.active < 0 ? (step > 0 ? 0 : count - 1) : (this.active + step + count) % count);
      } else if (e.key === "Enter" && !e.isComposing) {
        e.preventDefault();
        if (isOpen && this.options[this.active]) this.choose(this.options[this.active]);
        else if (this.input.value.trim()) this.go(endpoint(this.base, "search", { q: this.input.value.trim() }));
      } else if (e.key === "Escape") {
        if (isOpen) this.close(); else this.input.value = "";
        e.preventDefault();
      } else if (e.key === "Tab") {
        this.close();
      }
    }

    clicked(e) {
      const el = e.target.closest("[role=option]");
      if (!el) return;
      this.nothingFor = null; // the reader chose something
      if (el.run) { el.run(); return; }
      this.rememberQuery();
    }

    choose(el) {
      if (el.run) { el.run(); return; }
      el.click(); // a real link: follows target, and the click handler remembers the search
    }

    go(url) {
      this.nothingFor = null; // the results page counts a search that finds nothing
      this.rememberQuery();
      if (this.newTab) window.open(url, "_blank", "noopener"); else window.location.assign(url);
    }

    /**
     * The reader leaves the box on a query that found nothing: send it once more, as a
     * submitted search (no typing=1), which the service counts for the editors' coverage page.
     * The searches sent while typing are not counted, or "c", "ch", "chi"… would be listed as
     * words the course lacks; this one is the query the reader gave up on. Once per query, and
     * keepalive: it is sent even when the reader is leaving the page, which closes no box
     * (``pagehide``: the tab closed, or another page opened in it).
     */
    reportNothingFound() {
      const text = this.nothingFor;
      this.nothingFor = null;
      if (!text || text !== this.input.value.trim()) return;
      fetch(endpoint(this.base, "api/search", { q: text, limit: 1 }),
        { credentials: "omit", keepalive: true }).catch(() => null);
    }

    rememberQuery() {
      const text = this.input.value.trim();
      if (!this.remember || !text) return;
      const recent = storage.read(this.recentKey).filter((q) => q !== text);
      storage.write(this.recentKey, [text, ...recent].slice(0, MAX_RECENT));
    }
  }

  /**
   * The search's own term cards, then terms the typed prefix completes, their definitions
   * looked up in `known` (the glossary), or undefined while it has not arrived.
   */
  function matchingTerms(found, suggested, known) {
    const terms = new Map();
    for (const t of found.terms || []) {
      terms.set(t.glossary_anchor, { term: t.term, definition: t.definition, anchor: t.glossary_anchor });
    }
    for (const s of (suggested && suggested.suggestions) || []) {
      const anchor = s.kind === "term" ? decodeURIComponent(s.url.split("/glossary/").pop()) : "";
      if (!anchor || terms.has(anchor)) continue;
      const definition = !known ? undefined : (known.byAnchor.get(anchor) || {}).definition || null;
      terms.set(anchor, { term: s.text, definition, anchor, matched: s.matched });
    }
    return [...terms.values()].slice(0, MAX_TERMS_SHOWN);
  }

  /**
   * What the results page says of how the service read the query (search.html), in its words,
   * each as parts: text, then a quoted word, then text… `notes` are said above the results;
   * `offer` is a correction the results are not for ("Did you mean"), or null.
   *
   * The results are a correction's when found.suggestion_searched says so and it found some:
   * "Showing results for". A suggestion that only completes the word being typed ("softm":
   * softmax) is neither: the box completes that word anyway, and the reader is still typing it.
   * found.related: a word no section holds, searched as the one it was made from ("embedder":
   * embed), or a query that found nothing searched as the glossary term it names ("topp").
   * found.left_out: a pasted paragraph of more than 64 words and phrases, of which the first
   * 64 were searched ("Searched the first 64 words and phrases of 85; …").
   */
  function notices(text, found) {
    const notes = found.left_out ? [[found.left_out.notice]] : [];
    let offer = null;
    const fix = found.suggestion;
    if (fix && !completesLastWord(text, fix)) {
      if (found.suggestion_searched && found.total) notes.push(["Showing results for “", fix, "”."]);
      else offer = ["Did you mean “", fix, fix.endsWith("?") ? "”" : "”?"]; // not "softmax?"?
    }
    for (const { word, searched } of found.related || []) {
      notes.push(["No results for “", word, "”; showing results for “", searched, "”."]);
    }
    return { notes, offer };
  }

  function completesLastWord(text, fix) {
    const typed = text.toLowerCase();
    const fixed = fix.toLowerCase();
    return fixed.startsWith(typed) && !/\s/.test(fixed.slice(typed.length));
  }

  /** A notice's parts as text nodes, every other part (the quoted words) in a <span class="q">. */
  function quotedText(parts) {
    const out = document.createDocumentFragment();
    parts.forEach((part, i) => out.append(i % 2 ? make("span", { className: "q", textContent: part }) : part));
    return out;
  }

  /**
   * "Found in the lesson’s title: …", the title with the query's words marked, as the results
   * page says it above the snippet: the snippet of a hit found through its lesson's title alone
   * marks nothing, and read as a wrong hit. The title is HTML like a snippet (the server's
   * escaped text plus <mark>), so it goes through snippetFragment() too; the words are inside
   * the option, so a screen reader reads them with it.
   */
  function foundInTitle(html) {
    const el = make("span", { className: "found-in", textContent: FOUND_IN_TITLE });
    el.append(snippetFragment(html));
    return el;
  }

  function optionAttributes(kind) {
    return { role: "option", "aria-selected": "false", "data-kind": kind };
  }

  function describeCounts(terms, shown, total) {
    const parts = [];
    if (terms) parts.push(terms + (terms === 1 ? " term" : " terms"));
    const counted = shown < total ? shown + " of " + total : String(total);
    if (shown) parts.push(counted + (total === 1 ? " result" : " results"));
    return parts.join(" and ") + ". Use the up and down arrow keys to choose.";
  }

  function searchIcon() {
    const ns = "http://www.w3.org/2000/svg";
    const draw = (tag, attrs) => {
      const el = document.createElementNS(ns, tag);
      for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
      return el;
    };
    const svg = draw("svg", { class: "icon", viewBox: "0 0 24 24", "aria-hidden": "true", fill: "none",
      stroke: "currentColor", "stroke-width": "2.2", "stroke-linecap": "round" });
    svg.append(draw("circle", { cx: "10.5", cy: "10.5", r: "6.5" }), draw("path", { d: "M15.5 15.5 21 21" }));
    return svg;
  }

  // --- Keyboard shortcuts: "/" and Ctrl/Cmd-K focus the first box ---------------------------

  function isTyping(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  document.addEventListener("keydown", (e) => {
    if (!boxes.length || e.defaultPrevented) return;
    const slash = e.key === "/" && !e.ctrlKey && !e.metaKey && !e.altKey && !isTyping(e.composedPath()[0]);
    const k = (e.key === "k" || e.key === "K") && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
    if (!slash && !k) return;
    const first = firstBox();
    if (!first) return;
    e.preventDefault();
    first.focus();
  });

  /** The first box in the page's order. Not ``boxes[0]``: boxes are made in another order
   * (a <lesson-search> is upgraded as soon as the script defines it, before the
   * [data-lessonsearch] boxes are looked for; a host may mount one later), and a box may
   * have left the page. */
  function firstBox() {
    let first = null;
    for (const box of boxes) {
      if (!box.host.isConnected) continue;
      if (!first || first.host.compareDocumentPosition(box.host) & Node.DOCUMENT_POSITION_PRECEDING) first = box;
    }
    return first;
  }

  // --- Glossary tooltips --------------------------------------------------------------------

  /**
   * One RegExp for every term and alias, and the other forms of them the server counts as
   * mentions ("collimated", "f-ratios": the glossary's `forms`): longest first, whole words.
   * A name is its term's before it is another term's form. Each is matched in the case the
   * server reads it in (`caseFits`): "Makes" of the build tool Make, not "it makes sense".
   */
  function termMatcher(terms) {
    const byName = new Map();
    const titleRule = titleRuleOf(terms);
    for (const names of [(t) => [t.term, ...(t.aliases || [])], (t) => t.forms || []]) {
      for (const t of terms) {
        for (const name of names(t).map((n) => n || "")) {
          const key = foldName(name);
          if (key.length < 2) continue;
          if (!byName.has(key)) byName.set(key, []);
          byName.get(key).push({ term: t, name: spaced(name), title: titled(name, titleRule) });
        }
      }
    }
    if (!byName.size) return null;
    const names = [...byName.keys()].sort((a, b) => b.length - a.length);
    const alternatives = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+"));
    const edge = "[\\p{L}\\p{N}_]"; // a term starts and ends where no letter, digit or _ touches it
    const pattern = new RegExp("(?<!" + edge + ")(?:" + alternatives.join("|") + ")(?!" + edge + ")", "giu");
    const find = (text) => {
      const found = (byName.get(foldName(text)) || []).find((entry) => caseFits(entry, spaced(text)));
      return found ? found.term : undefined;
    };
    return { pattern, find };
  }

  const WORD_RUN = /[\p{L}\p{N}]+/gu;
  const isUpper = (s) => s === s.toUpperCase() && s !== s.toLowerCase();
  const isLower = (s) => s === s.toLowerCase() && s !== s.toUpperCase();
  const spaced = (name) => name.trim().replace(/\s+/g, " ");

  /**
   * Whether a capitalised one-word name matches only capitalised words, as the server's
   * TermMatcher.title_rule decides: unless most terms are capitalised (then the capital is
   * the glossary's house style and says nothing).
   */
  function titleRuleOf(terms) {
    const named = terms.map((t) => t.term || "").filter((n) => /^\p{L}/u.test(n));
    return named.filter((n) => isUpper([...n][0])).length * 2 < named.length;
  }

  /** A one-word name written capitalised (Make, Makes) while the title rule holds. */
  function titled(name, titleRule) {
    const word = spaced(name);
    return titleRule && /^[\p{L}\p{N}]+$/u.test(word) && isUpper(word[0]) && isLower(word.slice(1));
  }

  /** A word in capitals of up to five letters, with a plural s or not (KV, RAG, HTTPs). */
  function abbreviation(word) {
    let core = word;
    if (core.length > 2 && core.endsWith("s") && isUpper(core.slice(0, -1))) core = core.slice(0, -1);
    return core.length <= 5 && isUpper(core) && /^\p{L}/u.test(core);
  }

  /**
   * Whether `text`, which the RegExp matched for a name in any case, is written in the case
   * the server reads the name in (term_lookup.form_pattern): a word of the name in capitals
   * (KV) only as it is, a capitalised one-word name (Make) only capitalised, anything else in
   * any case. `text` and the name differ in case only, so their words sit at the same places.
   */
  function caseFits(entry, text) {
    if (entry.title && !isUpper(text[0])) return false;
    for (const word of entry.name.matchAll(WORD_RUN)) {
      if (abbreviation(word[0]) && text.slice(word.index, word.index + word[0].length) !== word[0]) return false;
    }
    return true;
  }

  function foldName(name) {
    return name.trim().replace(/\s+/g, " ").toLowerCase();
  }

  /** Every text node worth looking at under `root`, skipping code, links and the like. */
  function textNodes(root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode(node) {
        const { FILTER_ACCEPT, FILTER_REJECT, FILTER_SKIP } = NodeFilter;
        if (node.nodeType === Node.TEXT_NODE) return /\S/.test(node.data) ? FILTER_ACCEPT : FILTER_REJECT;
        return node.matches(SKIP_SELECTOR) ? FILTER_REJECT : FILTER_SKIP; // rejected: its subtree too
      },
    });
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    return nodes;
  }

  /**
   * Wrap the terms found in one text node; `seen` holds the anchors already marked. A term's
   * first mention is a link to its glossary entry (a Tab stop; Enter opens it); with `every`
   * ("all") the later ones are underlined too, for the pointer only, so that a long lesson does
   * not become hundreds of Tab stops and links to a screen reader.
   */
  function markTextNode(node, matcher, seen, every) {
    const text = node.data;
    let last = 0;
    let fragment = null;
    let count = 0;
    for (const match of text.matchAll(matcher.pattern)) {
      const term = matcher.find(match[0]);
      const first = term && !seen.has(term.anchor);
      if (!first && !(term && every)) continue;
      seen.add(term.anchor);
      fragment = fragment || document.createDocumentFragment();
      fragment.append(text.slice(last, match.index));
      const span = make("span", { className: "lessonsearch-term", textContent: match[0] },
        first ? { role: "link", tabindex: "0" } : null);
      span.lessonsearchTerm = term;
      fragment.append(span);
      count += 1;
      last = match.index + match[0].length;
    }
    if (!fragment) return 0;
    fragment.append(text.slice(last));
    node.replaceWith(fragment);
    return count;
  }

  const idle = window.requestIdleCallback
    ? (fn) => window.requestIdleCallback(fn, { timeout: 120 })
    : (fn) => setTimeout(() => fn(null), 0);
  const CHUNK_MS = 10; // at most this long per slice of work, so the page never stalls

  /** Underline terms under `root` a slice at a time, yielding to the page between slices. */
  async function markTerms(root) {
    if (root.lessonsearchMarked) return;
    root.lessonsearchMarked = true;
    const base = apiBase(root);
    let known;
    try {
      known = await glossary(base);
    } catch (err) {
      console.warn("lessonsearch: glossary tooltips are off, the terms could not be loaded:", err.message);
      return;
    }
    const matcher = termMatcher(known.terms);
    const started = performance.now();
    const nodes = matcher ? textNodes(root) : [];
    const every = root.getAttribute("data-lessonsearch-terms") === "all";
    const seen = new Set();
    const stats = { terms: known.terms.length, nodes: nodes.length, marked: 0, chunks: 0, longestChunkMs: 0,
      ms: 0 };
    let next = 0;
    await new Promise((resolve) => {
      (function slice(deadline) {
        const sliceStart = performance.now();
        const idleLeft = deadline && !deadline.didTimeout ? deadline.timeRemaining() : CHUNK_MS;
        const budget = Math.min(CHUNK_MS, Math.max(idleLeft, 2));
        while (next < nodes.length && performance.now() - sliceStart < budget) {
          const node = nodes[next++];
          if (node.isConnected) stats.marked += markTextNode(node, matcher, seen, every);
        }
        stats.chunks += 1;
        stats.longestChunkMs = Math.max(stats.longestChunkMs, performance.now() - sliceStart);
        if (next < nodes.length) idle(slice); else resolve();
      })(null);
    });
    stats.ms = performance.now() - started;
    root.dispatchEvent(new CustomEvent("lessonsearch:terms", { bubbles: true, detail: stats }));
  }

  /**
   * The one tooltip of the page: a shadow-rooted element appended to <body> on first use. It is
   * the ARIA tooltip pattern: the shown term's aria-describedby points at it, so a screen reader
   * reads the definition with the term, and it never takes focus. Its name and its link are
   * hidden from that description and its link from Tab: the term itself is the link to the
   * same glossary entry.
   */
  const tooltip = {
    host: null, term: null, hideTimer: 0, showTimer: 0,

    build() {
      this.host = make("lessonsearch-tooltip", { id: "lessonsearch-tooltip", hidden: true }, { role: "tooltip" });
      const root = this.host.attachShadow({ mode: "open" });
      adoptStyles(root, TIP_CSS);
      this.name = make("span", { className: "name" }, { "aria-hidden": "true" });
      this.definition = make("span", { className: "def" });
      this.link = make("a", { className: "more", textContent: "Read more in the glossary" },
        { "aria-hidden": "true", tabindex: "-1" });
      const tip = make("div", { className: "tip" });
      tip.append(this.name, this.definition, this.link);
      root.append(tip);
      this.host.addEventListener("mouseenter", () => clearTimeout(this.hideTimer));
      this.host.addEventListener("mouseleave", () => this.hideSoon());
      document.body.append(this.host);
      window.addEventListener("scroll", () => this.place(), { passive: true, capture: true });
      window.addEventListener("resize", () => this.place(), { passive: true });
    },

    show(span) {
      clearTimeout(this.hideTimer);
      clearTimeout(this.showTimer);
      if (!this.host) this.build();
      const term = span.lessonsearchTerm;
      const root = span.closest("[data-lessonsearch-terms]");
      this.host.setAttribute("data-theme", option(root, "theme"));
      this.name.textContent = term.term;
      this.definition.textContent = term.definition || "No definition yet.";
      this.link.href = glossaryLink(root, term);
      const newTab = option(root, "target") === "new";
      this.link.target = newTab ? "_blank" : "";
      this.link.rel = newTab ? "noopener" : "";
      if (this.term && this.term !== span) this.term.removeAttribute("aria-describedby");
      this.term = span;
      span.setAttribute("aria-describedby", this.host.id);
      this.host.hidden = false;
      this.place();
    },

    place() {
      if (!this.host || this.host.hidden || !this.term) return;
      const at = this.term.getBoundingClientRect();
      const size = this.host.getBoundingClientRect();
      const left = Math.max(8, Math.min(at.left, window.innerWidth - size.width - 8));
      const below = at.bottom + 6;
      const above = at.top - size.height - 6;
      const top = below + size.height > window.innerHeight && above > 0 ? above : below; // flip up near the bottom
      this.host.style.setProperty("left", left + "px"); // CSSOM, which a style-src CSP allows
      this.host.style.setProperty("top", top + "px");
    },

    hideSoon() {
      clearTimeout(this.showTimer);
      clearTimeout(this.hideTimer);
      this.hideTimer = setTimeout(() => this.hide(), 250);
    },

    hide() {
      clearTimeout(this.hideTimer);
      if (!this.host) return;
      this.host.hidden = true;
      if (this.term) this.term.removeAttribute("aria-describedby");
      this.term = null;
    },
  };

  function glossaryLink(root, term) {
    return new URL("glossary#" + encodeURIComponent(term.anchor), apiBase(root)).href;
  }

  function termOf(e) {
    const el = e.target instanceof Element ? e.target.closest(".lessonsearch-term") : null;
    return el && el.lessonsearchTerm ? el : null;
  }

  document.addEventListener("mouseover", (e) => {
    const span = termOf(e);
    if (!span) return;
    clearTimeout(tooltip.showTimer);
    tooltip.showTimer = setTimeout(() => tooltip.show(span), 80);
  });
  document.addEventListener("mouseout", (e) => { if (termOf(e)) tooltip.hideSoon(); });
  document.addEventListener("focusin", (e) => { const span = termOf(e); if (span) tooltip.show(span); });
  document.addEventListener("focusout", (e) => { if (termOf(e)) tooltip.hideSoon(); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && tooltip.term) tooltip.hide();
    if (e.key === "Enter") openEntry(termOf(e));
  });
  document.addEventListener("click", (e) => {
    // A click with no pointer behind it (detail 0) is a screen reader activating the link. A
    // pointer's click is left alone: a tap shows the tooltip, whose link then opens the entry.
    if (e.detail === 0) openEntry(termOf(e));
  });

  /** A term's glossary entry, as its tooltip's link opens it (the same tab or a new one). */
  function openEntry(span) {
    if (!span || span.getAttribute("role") !== "link") return;
    tooltip.show(span);
    tooltip.link.click();
  }

  // --- Start-up -----------------------------------------------------------------------------

  function mount(el) {
    if (!el.lessonsearchBox) el.lessonsearchBox = new SearchBox(el);
    return el.lessonsearchBox;
  }

  if (window.customElements && !customElements.get("lesson-search")) {
    customElements.define("lesson-search", class extends HTMLElement {
      connectedCallback() { mount(this); }
    });
  }

  /**
   * A [data-lessonsearch] box that a single-page app adds later starts by itself, as a
   * <lesson-search> does. Cheap: it looks only at the elements added, and into one only when
   * it has children (the spans that term marking adds have none).
   */
  function watchForBoxes() {
    if (!window.MutationObserver) return;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node.nodeType !== Node.ELEMENT_NODE) continue;
          if (node.hasAttribute("data-lessonsearch")) mount(node);
          if (node.firstElementChild) node.querySelectorAll("[data-lessonsearch]").forEach(mount);
        }
      }
    }).observe(document.documentElement, { childList: true, subtree: true });
  }

  function start() {
    document.querySelectorAll("[data-lessonsearch]").forEach(mount);
    watchForBoxes();
    const roots = document.querySelectorAll("[data-lessonsearch-terms]");
    if (roots.length) adoptStyles(document, TERM_CSS);
    roots.forEach((root) => { markTerms(root); });
  }

  window.LessonSearch = { mount, markTerms, version: "1" };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
