/*
 * coalg-book.js: loaded on every page of the web book (_config.yml, html_js_files).
 *
 * The widget manager (@jupyter-widgets/html-manager 1.0.6) validates the page's saved widget
 * state with Ajv in strict mode, and Ajv logs a console warning for a union type in the
 * manager's own schema ("strict mode: use allowUnionTypes to allow union type keyword ...").
 * The warning is about that schema, not about the page, and validation still succeeds, so
 * exactly this message is dropped; every other warning goes through unchanged.
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
