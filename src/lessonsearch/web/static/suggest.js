// Completions for the search box from /api/suggest, as a <datalist>. Optional: the form is a
// plain GET and works without this script.
(function () {
  "use strict";
  var input = document.querySelector("input[data-suggest]");
  if (!input || !window.fetch) return;
  var list = document.getElementById(input.getAttribute("list"));
  var timer = null;
  var latest = 0;

  function show(suggestions) {
    list.textContent = "";
    suggestions.forEach(function (s) {
      var option = document.createElement("option");
      option.value = s.text;
      option.label = s.kind;
      list.appendChild(option);
    });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    var text = input.value.trim();
    if (!text) { show([]); return; }
    timer = setTimeout(function () {
      var asked = ++latest;
      fetch(input.dataset.suggest + "?q=" + encodeURIComponent(text))
        .then(function (r) { return r.ok ? r.json() : { suggestions: [] }; })
        .then(function (body) { if (asked === latest) show(body.suggestions); })
        .catch(function () { /* completions are a nicety; typing still works */ });
    }, 120);
  });
})();
