// The coverage page's table: sort by a column and filter by a problem kind without a reload.
// Without JavaScript the same links ask the server for the sorted or filtered page; with it,
// the address bar keeps the server's query for what the table shows (?kind=, ?sort=, ?order=),
// so a reloaded or shared page shows the same, and a page with such a query but drawn without
// it (the standalone file `lessonsearch coverage --format html` writes) applies it on load.
(function () {
  "use strict";
  var table = document.querySelector("table.coverage-terms");
  if (!table) { return; }
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows).filter(function (r) {
    return r.hasAttribute("data-kinds");
  });
  var noRows = body.querySelector("tr.no-rows");
  var filterLinks = document.querySelectorAll("nav.kinds a[data-filter]");
  var sortLinks = table.querySelectorAll("thead a[data-sort]");

  // What the table shows as drawn: the server has applied its query already.
  var state = {kind: "", sort: "term", reversed: false};
  var current = document.querySelector("nav.kinds a[data-filter][aria-current]");
  if (current) { state.kind = current.getAttribute("data-filter"); }
  var sorted = table.querySelector("thead th[aria-sort] a[data-sort]");
  if (sorted) {
    state.sort = sorted.getAttribute("data-sort");
    state.reversed = sorted.closest("th").getAttribute("data-sorted") === "reversed";
  }

  // A text column's values stay text (data-text on its link): a term such as 2048 or 1e3
  // reads as a number, and numbers and text compared with < give no order at all.
  function value(row, key, text) {
    var raw = row.getAttribute("data-" + key) || "";
    var number = Number(raw);
    return text || raw === "" || isNaN(number) ? raw : number;
  }

  // Text in code point order, as the server's sort compares str: < compares UTF-16 units,
  // which put a character past U+FFFF before one from U+E000 to U+FFFF.
  function compareText(x, y) {
    var a = Array.from(x), b = Array.from(y);
    for (var i = 0; i < a.length && i < b.length; i++) {
      var d = a[i].codePointAt(0) - b[i].codePointAt(0);
      if (d !== 0) { return d < 0 ? -1 : 1; }
    }
    return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
  }

  // The way a column reads: counts are stored negated (data-descending on the link), so
  // their stored order reads most first.
  function reads(link, reversed) {
    return link.hasAttribute("data-descending") !== reversed ? "descending" : "ascending";
  }

  // A column sorts by its data-* values, ascending, or reversed; aria-sort says the order
  // the reader sees, not the order of the stored values. Ties go by term A–Z whichever way
  // the column reads, as on the server: reversing the whole comparison put tied terms Z–A.
  function sortBy(key, link, reversed) {
    var text = link.hasAttribute("data-text");
    rows.sort(function (a, b) {
      var x = value(a, key, text), y = value(b, key, text);
      var order = text ? compareText(x, y) : x < y ? -1 : x > y ? 1 : 0;
      if (order !== 0) { return reversed ? -order : order; }
      return compareText(value(a, "term", true), value(b, "term", true));
    });
    rows.forEach(function (r) { body.appendChild(r); });
    table.querySelectorAll("thead th").forEach(function (th) {
      th.removeAttribute("aria-sort");
      th.removeAttribute("data-sorted");
    });
    var header = link.closest("th");
    header.setAttribute("aria-sort", reads(link, reversed));
    header.setAttribute("data-sorted", reversed ? "reversed" : "stored");
    state.sort = key;
    state.reversed = reversed;
  }

  // The rows of other kinds are hidden, not removed: the server draws a filtered page so too.
  function filterBy(kind, link) {
    var shown = 0;
    rows.forEach(function (r) {
      var kinds = r.getAttribute("data-kinds").split(" ");
      r.hidden = kind !== "" && kinds.indexOf(kind) < 0;
      if (!r.hidden) { shown += 1; }
    });
    if (noRows) { noRows.hidden = shown > 0; }
    var title = document.querySelector("#terms-heading [data-filter-title]");
    if (title) { title.textContent = kind ? ": " + link.getAttribute("data-title") : ""; }
    var count = document.querySelector("#terms-heading [data-shown]");
    if (count) { count.textContent = String(shown); }
    document.querySelectorAll("nav.kinds a[aria-current]").forEach(function (a) {
      a.removeAttribute("aria-current");
    });
    link.setAttribute("aria-current", "true");
    state.kind = kind;
  }

  function linkFor(links, name, wanted) {
    return Array.prototype.find.call(links, function (a) {
      return a.getAttribute(name) === wanted;
    }) || null;
  }

  // The query for a filter and sort, as the server's links write it (coverage_render's
  // _page_href), keeping the page's other arguments (?lessons=).
  function query(kind, key, reversed) {
    var params = new URLSearchParams(location.search);
    ["kind", "sort", "order"].forEach(function (name) { params.delete(name); });
    if (kind) { params.set("kind", kind); }
    params.set("sort", key);
    if (reversed) { params.set("order", reads(linkFor(sortLinks, "data-sort", key), true)); }
    return "?" + params.toString();
  }

  // The links ask the server for what a click shows here (a link opened in a new tab).
  function relink() {
    filterLinks.forEach(function (a) {
      a.setAttribute("href", query(a.getAttribute("data-filter"), state.sort, state.reversed) +
                     "#terms");
    });
    sortLinks.forEach(function (a) {
      var key = a.getAttribute("data-sort");
      a.setAttribute("href", query(state.kind, key, key === state.sort && !state.reversed) +
                     "#terms");
    });
  }

  // The address bar says what the table shows now.
  function remember() {
    relink();
    try {
      history.replaceState(history.state, "",
                           query(state.kind, state.sort, state.reversed) + location.hash);
    } catch (refused) {
      // A browser may refuse to change a file: URL; the table is sorted all the same.
    }
  }

  // The query the page was opened with, where the table does not show it yet.
  function applyQuery() {
    var asked = new URLSearchParams(location.search);
    var kind = asked.get("kind") || "";
    var filter = linkFor(filterLinks, "data-filter", kind);
    if (filter && kind !== state.kind) { filterBy(kind, filter); }
    var key = asked.get("sort") || "term";
    var link = linkFor(sortLinks, "data-sort", key);
    if (!link) { return; }
    var order = asked.get("order");
    var reversed = (order === "ascending" || order === "descending") &&
        order !== reads(link, false);
    if (key !== state.sort || reversed !== state.reversed) { sortBy(key, link, reversed); }
  }

  if (location.search) {
    applyQuery();
    relink();
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-sort], a[data-filter]");
    if (!link) { return; }
    event.preventDefault();
    if (link.hasAttribute("data-sort")) {
      // Clicking the sorted column again reverses it.
      var key = link.getAttribute("data-sort");
      sortBy(key, link, key === state.sort && !state.reversed);
    } else {
      filterBy(link.getAttribute("data-filter"), link);
    }
    remember();
  });
}());
