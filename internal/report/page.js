(function () {
  "use strict";
  var placeholder = document.getElementById("placeholder");
  var openPanel = null, openCell = null;

  function cellFor(port, id) {
    var cells = document.querySelectorAll("td.cell");
    for (var i = 0; i < cells.length; i++) {
      if (cells[i].dataset.port === port && cells[i].dataset.id === id) return cells[i];
    }
    return null;
  }

  function close() {
    if (openPanel) openPanel.hidden = true;
    if (openCell) { openCell.classList.remove("selected"); openCell.setAttribute("aria-pressed", "false"); }
    openPanel = openCell = null;
    placeholder.hidden = false;
    document.body.removeAttribute("data-open");
    try { history.replaceState(null, "", location.pathname + location.search); } catch (e) {}
  }

  function open(cell) {
    var panel = document.getElementById(cell.getAttribute("aria-controls"));
    if (!panel) return;
    if (openPanel) openPanel.hidden = true;
    if (openCell) { openCell.classList.remove("selected"); openCell.setAttribute("aria-pressed", "false"); }
    placeholder.hidden = true;
    panel.hidden = false;
    cell.classList.add("selected");
    cell.setAttribute("aria-pressed", "true");
    openPanel = panel; openCell = cell;
    var key = cell.dataset.port + "/" + cell.dataset.id;
    document.body.setAttribute("data-open", key);
    document.getElementById("panel").scrollTop = 0;
    try { history.replaceState(null, "", "#" + encodeURIComponent(key)); } catch (e) {}
  }

  document.querySelectorAll("td.cell").forEach(function (cell) {
    cell.addEventListener("click", function () { open(cell); });
    cell.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); open(cell); }
    });
  });
  document.querySelectorAll(".evidence .close").forEach(function (b) { b.addEventListener("click", close); });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && openCell) { var c = openCell; close(); c.focus(); } });

  document.querySelectorAll("button.copy").forEach(function (b) {
    b.addEventListener("click", function () {
      var text = b.dataset.copy, done = function () { b.textContent = "copied"; setTimeout(function () { b.textContent = "copy"; }, 1500); };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () { select(b.previousElementSibling); });
      } else {
        select(b.previousElementSibling);
      }
    });
  });
  function select(el) {
    var r = document.createRange(); r.selectNodeContents(el);
    var s = getSelection(); s.removeAllRanges(); s.addRange(r);
  }

  var filter = document.getElementById("only-problems");
  filter.addEventListener("change", function () { document.body.classList.toggle("only-problems", filter.checked); });

  // #<port>/<ID> opens that cell, so a link can point at one piece of evidence. The page is not
  // scrolled to the cell: the evidence panel is at the top already, and a scroll made before
  // the first paint left the page blank.
  var hash = decodeURIComponent(location.hash.slice(1)), slash = hash.indexOf("/");
  if (slash > 0) {
    var cell = cellFor(hash.slice(0, slash), hash.slice(slash + 1));
    if (cell) { open(cell); }
  }
  document.body.setAttribute("data-ready", "1");
})();
