// JupyterLab extension "coalg-chapters", written by hand: no npm build step.
//
// JupyterLab chooses a document's viewer by *file type*, and a file type is matched by
// extension or by a name pattern. Settings alone can only say "every .md opens as a notebook",
// which would also turn README.md and book/STYLE.md into notebooks. This plugin adds one file
// type, "coalg-chapter", that matches chapter file names only; tools/lab/settings/overrides.json
// makes jupytext's "Jupytext Notebook" its default viewer (double-click and links alike).
//
// Chapter names are lower case (01-introduction.md, appendix-e-performance.md, ...); plain
// Markdown documents are upper case (README.md, STYLE.md) or book/intro.md, the book's cover
// page. tests/test_lab.py checks that this pattern picks exactly the chapters.
//
// The object registered under window._JUPYTERLAB["coalg-chapters"] is the module-federation
// container JupyterLab loads for every prebuilt extension (init, then get("./extension")).
(function () {
  "use strict";

  var CHAPTER_PATTERN = "^(?!intro\\.md$)[a-z0-9][a-z0-9-]*\\.md$";

  var plugin = {
    id: "coalg-chapters:plugin",
    description: "Open the book's chapters as notebooks (jupytext), other Markdown as text.",
    autoStart: true,
    activate: function (app) {
      var registry = app.docRegistry;
      var markdown = registry.getFileType("markdown");
      registry.addFileType(
        {
          name: "coalg-chapter",
          displayName: "Chapter (MyST Markdown notebook)",
          // No extensions: only the pattern may select this type, so README.md never does.
          extensions: [],
          pattern: CHAPTER_PATTERN,
          mimeTypes: ["text/markdown"],
          contentType: "notebook",
          icon: markdown ? markdown.icon : undefined
        },
        ["Jupytext Notebook"]
      );
    }
  };

  var containers = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  containers["coalg-chapters"] = {
    init: function () {
      return Promise.resolve();
    },
    get: function (module) {
      if (module !== "./extension") {
        return Promise.reject(new Error("coalg-chapters has no module " + module));
      }
      return Promise.resolve(function () {
        return { __esModule: true, default: [plugin] };
      });
    }
  };
})();
