// The coverage page's table: sort by a column and filter by a problem kind without a reload.
// Without JavaScript the same links ask the server for the sorted or filtered page.
(function () {
  "use strict";
  var table = document.querySelector("table.coverage-terms");
  if (!table) { return; }
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows).filter(function (r) {
    return r.hasAttribute("data-kinds");
  });

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

  // A column sorts by its data-* values, ascending; clicking it again reverses that. Counts
  // are stored negated (data-descending on the link), so their first click reads most first:
  // aria-sort says the order the reader sees, not the order of the stored values. Ties go
  // by term A–Z whichever way the column reads, as on the server: reversing the whole
  // comparison put tied terms Z–A.
  function sortBy(key, link) {
    var header = link.closest("th");
    var reversed = header.getAttribute("data-sorted") === "stored";
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
    var reads = link.hasAttribute("data-descending") !== reversed ? "descending" : "ascending";
    header.setAttribute("aria-sort", reads);
    header.setAttribute("data-sorted", reversed ? "reversed" : "stored");
  }

  function filterBy(kind, link) {
    rows.forEach(function (r) {
      var kinds = r.getAttribute("data-kinds").split(" ");
      r.hidden = kind !== "" && kinds.indexOf(kind) < 0;
    });
    document.querySelectorAll("nav.kinds a[data-filter]").forEach(function (a) {
      a.removeAttribute("aria-current");
    });
    link.setAttribute("aria-current", "true");
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-sort], a[data-filter]");
    if (!link) { return; }
    event.preventDefault();
    if (link.hasAttribute("data-sort")) {
      sortBy(link.getAttribute("data-sort"), link);
    } else {
      filterBy(link.getAttribute("data-filter"), link);
    }
  });
}());
