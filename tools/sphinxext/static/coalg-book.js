/*
 * coalg-book.js: loaded on every page of the web book (_config.yml, html_js_files).
 *
 * On a phone (600 px or less), a table of the text wider than the column is marked
 * `coalg-stacked` and each of its cells gets its column's heading (`data-label`); the book's
 * stylesheet then shows its rows stacked. The marks are recomputed when the window changes.
 */
(function () {
  "use strict";
  var PHONE = 600;
  function label(table) {
    var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    });
    Array.prototype.forEach.call(table.querySelectorAll("tbody > tr"), function (tr) {
      Array.prototype.forEach.call(tr.children, function (td, i) {
        if (heads[i]) td.setAttribute("data-label", heads[i]);
      });
    });
  }
  function restack() {
    var tables = document.querySelectorAll(".bd-article .pst-scrollable-table-container > table");
    Array.prototype.forEach.call(tables, function (table) {
      table.classList.remove("coalg-stacked");
    });
    if (window.innerWidth > PHONE) return;
    Array.prototype.forEach.call(tables, function (table) {
      var box = table.parentElement;
      if (box.scrollWidth > box.clientWidth + 1) {
        label(table);
        table.classList.add("coalg-stacked");
      }
    });
  }
  function start() {
    restack();
    window.addEventListener("resize", restack);
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(restack);
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

/*
 * Search results: the snippet under each result is cut from the page's text, where math is
 * still TeX (MathJax typesets it only when the page is shown). The snippet shows that math as
 * plain text instead: the notation's symbols as characters, other commands without their
 * backslash, no delimiters or braces.
 */
(function () {
  "use strict";
  var SYMBOLS = {
    Rminus: "R\u207B", Rplus: "R\u207A", Pfin: "P_fin", Id: "Id", Rec: "Rec", dom: "dom",
    ids: "ids", tauv: "\u03C4_v", taut: "\u03C4_t", uplusd: "\u228E", oplusm: "\u2295",
    to: "\u2192", mapsto: "\u21A6", approx: "\u2248", uplus: "\u228E", oplus: "\u2295",
    cup: "\u222A", cap: "\u2229", subseteq: "\u2286", subset: "\u2282", in: "\u2208",
    notin: "\u2209", times: "\u00D7", circ: "\u2218", le: "\u2264", leq: "\u2264",
    ge: "\u2265", geq: "\u2265", neq: "\u2260", ne: "\u2260", emptyset: "\u2205",
    varnothing: "\u2205", theta: "\u03B8", beta: "\u03B2", alpha: "\u03B1", gamma: "\u03B3",
    delta: "\u03B4", lambda: "\u03BB", sigma: "\u03C3", tau: "\u03C4", psi: "\u03C8",
    Psi: "\u03A8", phi: "\u03C6", Phi: "\u03A6", Sigma: "\u03A3", mathcal: "", mathsf: "",
    mathrm: "", mathbf: "", mathit: "", text: "", operatorname: "", left: "", right: "",
    ldots: "\u2026", dots: "\u2026", cdots: "\u22EF", cdot: "\u00B7", sim: "\u223C",
    forall: "\u2200", exists: "\u2203", wedge: "\u2227", vee: "\u2228", neg: "\u00AC",
    Rightarrow: "\u21D2", rightarrow: "\u2192", langle: "\u27E8", rangle: "\u27E9",
    quad: " ", qquad: " ", setminus: "\u2216", prec: "\u227A", preceq: "\u2AAF",
  };
  function plainTex(tex) {
    return tex
      .replace(/^\s*(\\\(|\\\[|\$\$?)/, "").replace(/(\\\)|\\\]|\$\$?)\s*$/, "")
      .replace(/\\beh\{([^{}]*)\}/g, "\u27E6$1\u27E7")
      .replace(/\\([A-Za-z]+)/g, function (m, name) {
        return Object.prototype.hasOwnProperty.call(SYMBOLS, name) ? SYMBOLS[name] : name;
      })
      .replace(/\\[,;:! ]/g, " ").replace(/\\([{}_$%&#])/g, "$1").replace(/[{}]/g, "")
      .replace(/\\/g, "").replace(/\s+/g, " ").trim();
  }
  function patch() {
    if (typeof Search === "undefined" || !Search.htmlToText || Search.coalgPlainMath) return;
    var original = Search.htmlToText;
    Search.htmlToText = function (htmlString, anchor) {
      var doc = new DOMParser().parseFromString(htmlString, "text/html");
      doc.querySelectorAll(".math").forEach(function (el) {
        el.textContent = plainTex(el.textContent);
      });
      return original(doc.documentElement.outerHTML, anchor);
    };
    Search.coalgPlainMath = true;
  }
  window.coalgPlainTex = plainTex;
  patch();
  document.addEventListener("DOMContentLoaded", patch);
})();
