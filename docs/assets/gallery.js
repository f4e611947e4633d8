// The gallery's search box: keeps the cards whose names and ids contain every word typed,
// hides the family sections left empty, and says how many envs match.
(function () {
  "use strict";

  function setUp(gallery) {
    var input = gallery.querySelector(".pg-search input");
    if (!input) {
      return;
    }
    var cards = Array.prototype.slice.call(gallery.querySelectorAll(".pg-card"));
    var grids = Array.prototype.slice.call(gallery.querySelectorAll(".pg-grid"));
    var count = gallery.querySelector(".pg-count");
    var none = gallery.querySelector(".pg-none");

    function filter() {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      cards.forEach(function (card) {
        var text = card.getAttribute("data-search") || "";
        var match = words.every(function (word) { return text.indexOf(word) !== -1; });
        card.hidden = !match;
        if (match) {
          shown += 1;
        }
      });
      grids.forEach(function (grid) {
        var empty = !grid.querySelector(".pg-card:not([hidden])");
        grid.hidden = empty;
        // a family's heading and its line of text come right before its grid
        var before = grid.previousElementSibling;
        for (var i = 0; i < 2 && before && !before.classList.contains("pg-search"); i++) {
          before.hidden = empty;
          before = before.previousElementSibling;
        }
      });
      if (count) {
        count.textContent = words.length ? shown + " of " + cards.length : "";
      }
      if (none) {
        none.hidden = shown !== 0;
      }
    }

    input.addEventListener("input", filter);
    var query = new URLSearchParams(window.location.search).get("q");
    if (query) {
      input.value = query;
    }
    filter();
  }

  function start() {
    document.querySelectorAll("[data-gallery]").forEach(setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
