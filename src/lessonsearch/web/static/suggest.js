// Completions for the search box from /api/suggest, as a listbox under it (the ARIA combobox
// pattern). Optional: the form is a plain GET and works without this script.
//
// Not a <datalist>: its option's label said only the kind ("term"), never the alias a term was
// found by, and a browser may leave out an option whose text does not hold what was typed
// ("time to live" for `hop`, found by its alias "hop limit"); its popup is the browser's, no
// part of the page to style or test. Here every suggestion the service sends is listed, one
// found by an alias naming it: "time to live, also called hop limit".
(function () {
  "use strict";
  var input = document.querySelector("input[data-suggest]");
  if (!input || !window.fetch) return;
  var KIND_LABELS = { term: "glossary term", lesson: "lesson", heading: "section" };
  var list = document.createElement("ul");
  list.id = input.id + "-suggestions";
  list.className = "suggestions";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Suggestions");
  list.hidden = true;
  var status = document.createElement("span");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  var combo = document.createElement("div");  // the list is placed under the box itself
  combo.className = "combo";
  input.parentNode.insertBefore(combo, input);
  combo.append(input, list, status);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", list.id);
  input.setAttribute("aria-expanded", "false");
  var timer = null;
  var latest = 0;
  var active = -1;

  function options() { return list.querySelectorAll("[role=option]"); }

  function option(s, n) {
    var li = document.createElement("li");
    li.id = list.id + "-" + n;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    li.dataset.text = s.text;
    var words = document.createElement("span");
    words.textContent = s.text;
    li.appendChild(words);
    if (s.matched) {  // the alias the typed words completed, which the text may not hold
      var alias = document.createElement("span");
      alias.className = "matched";
      alias.textContent = ", also called " + s.matched;
      words.appendChild(alias);
    }
    var kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = KIND_LABELS[s.kind] || s.kind;
    li.appendChild(kind);
    li.addEventListener("mousedown", function (event) {
      event.preventDefault();  // keep the focus in the box
      choose(li);
    });
    return li;
  }

  function show(suggestions) {
    list.textContent = "";
    active = -1;
    input.removeAttribute("aria-activedescendant");
    suggestions.forEach(function (s, n) { list.appendChild(option(s, n)); });
    var open = suggestions.length > 0;
    list.hidden = !open;
    input.setAttribute("aria-expanded", String(open));
    status.textContent = !open ? "" : suggestions.length === 1 ? "1 suggestion"
      : suggestions.length + " suggestions";
  }

  function move(to) {
    var all = options();
    if (!all.length) return;
    if (active >= 0) all[active].setAttribute("aria-selected", "false");
    active = (to + all.length) % all.length;
    all[active].setAttribute("aria-selected", "true");
    all[active].scrollIntoView({ block: "nearest" });
    input.setAttribute("aria-activedescendant", all[active].id);
  }

  function choose(li) {
    input.value = li.dataset.text;
    show([]);
    if (input.form) input.form.requestSubmit ? input.form.requestSubmit() : input.form.submit();
  }

  input.addEventListener("keydown", function (event) {
    if (list.hidden) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      move(active + (event.key === "ArrowDown" ? 1 : active < 0 ? 0 : -1));
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      choose(options()[active]);
    } else if (event.key === "Escape") {
      event.preventDefault();
      show([]);
    }
  });
  input.addEventListener("blur", function () { latest++; show([]); });

  input.addEventListener("input", function () {
    clearTimeout(timer);
    var text = input.value.trim();
    if (!text) { latest++; show([]); return; }
    timer = setTimeout(function () {
      var asked = ++latest;
      fetch(input.dataset.suggest + "?q=" + encodeURIComponent(text))
        .then(function (r) { return r.ok ? r.json() : { suggestions: [] }; })
        .then(function (body) {
          if (asked === latest && document.activeElement === input) show(body.suggestions);
        })
        .catch(function () { /* completions are a nicety; typing still works */ });
    }, 120);
  });
})();
