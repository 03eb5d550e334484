/*
 * widgets-offline.js: glue between the locally served Jupyter widget manager
 * (@jupyter-widgets/html-manager 1.0.6, AMD build) and MathJax 3.
 * Loaded by _config.yml (nb_ipywidgets_js) after require.js and before embed-amd.js.
 *
 * 1. Font path. The bundle's AMD modules "@jupyter-widgets/html-manager" and
 *    "@jupyter-widgets/html-manager/dist/libembed-amd" compute webpack's public path (where
 *    the icon fonts are) from the URL RequireJS gives the module. Unmapped, that URL resolves
 *    next to the page (e.g. notebooks/@jupyter-widgets/...) and the fonts 404. We map both
 *    module names into _static/offline/html-manager/, where tools/vendor_js.sh put the fonts.
 *    (The modules are defined inside embed-amd.js, so RequireJS never fetches these URLs.)
 *
 * 2. MathJax API. @jupyter-widgets/base typesets widget labels with the MathJax 2 call
 *    MathJax.Hub.Queue(["Typeset", MathJax.Hub, element]); MathJax 3 has no Hub, so every
 *    widget page threw "Cannot read properties of undefined (reading 'Queue')".
 *    We provide a Hub.Queue that forwards to MathJax.typesetPromise. MathJax 3 replaces
 *    window.MathJax with its own object at start-up, so the Hub is installed both on the
 *    configuration object (before MathJax loads) and again from startup.ready (after).
 *    Widget text writes math as $...$ (as in Jupyter), while the book's MathJax reads only
 *    \(...\) and \[...\] and skips everything outside classes like "math"; so the element
 *    handed to Hub.Queue gets its dollars rewritten and the class "mathjax_process".
 *    Sphinx puts MathJax only on pages that contain math: on other pages window.MathJax is
 *    left undefined, which the widget code checks before typesetting.
 *
 * 3. Schema noise. The manager validates the page's saved widget state with Ajv in strict
 *    mode, and Ajv logs a console warning for a union type in the manager's own schema
 *    ("strict mode: use allowUnionTypes to allow union type keyword ..."). The warning is
 *    about that schema, not about the page, and validation still succeeds, so exactly this
 *    message is dropped; every other warning goes through unchanged. The filter has to be in
 *    place before embed-amd.js runs: RequireJS starts the manager from a timer, which can
 *    fire while the browser is still fetching the scripts that come after embed-amd.js.
 */
(function () {
  "use strict";
  var warn = console.warn.bind(console);
  var schemaNoise = /^strict mode: use allowUnionTypes to allow union type keyword/;
  console.warn = function () {
    if (arguments.length && typeof arguments[0] === "string" && schemaNoise.test(arguments[0])) {
      return;
    }
    warn.apply(null, arguments);
  };
})();

(function () {
  "use strict";

  // --- 1. where the widget manager's fonts live --------------------------------------
  var root = document.documentElement.getAttribute("data-content_root") || "./";
  var managerDir = new URL(root + "_static/offline/html-manager", document.baseURI).href;
  if (window.require && typeof window.require.config === "function") {
    window.require.config({
      paths: {
        "@jupyter-widgets/html-manager": managerDir + "/html-manager",
        "@jupyter-widgets/html-manager/dist": managerDir,
      },
    });
  }

  // --- 2. MathJax 2 Hub.Queue on top of MathJax 3 -----------------------------------
  if (!window.MathJax) {
    return; // no MathJax on this page
  }
  var pending = []; // elements handed to Hub.Queue before MathJax 3 was ready

  function useBookDelimiters(element) {
    var walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    var nodes = [];
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push(node);
    }
    nodes.forEach(function (textNode) {
      var text = textNode.nodeValue;
      var converted = text
        .replace(/\$\$([^$]+)\$\$/g, "\\[$1\\]")
        .replace(/\$([^$]+)\$/g, "\\($1\\)");
      if (converted !== text) {
        textNode.nodeValue = converted;
      }
    });
    element.classList.add("mathjax_process");
  }

  function typeset(element) {
    if (element && element.nodeType === 1) {
      useBookDelimiters(element); // idempotent: converted text has no dollars left
    }
    var mj = window.MathJax;
    if (mj && typeof mj.typesetPromise === "function") {
      mj.typesetPromise(element ? [element] : undefined).catch(function (err) {
        console.warn("MathJax typeset of widget content failed:", err);
      });
    } else {
      pending.push(element);
    }
  }

  function makeHub() {
    return {
      Queue: function () {
        for (var k = 0; k < arguments.length; k++) {
          var job = arguments[k];
          if (Array.isArray(job) && job[0] === "Typeset") {
            typeset(job[2]);
          } else if (typeof job === "function") {
            job();
          }
        }
      },
    };
  }

  var config = window.MathJax;
  config.Hub = makeHub();
  config.startup = config.startup || {};
  var previousReady = config.startup.ready;
  config.startup.ready = function () {
    if (typeof previousReady === "function") {
      previousReady();
    } else {
      window.MathJax.startup.defaultReady();
    }
    window.MathJax.Hub = makeHub();
    window.MathJax.startup.promise.then(function () {
      pending.splice(0).forEach(typeset);
    });
  };
})();
