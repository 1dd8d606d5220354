"""The static files storage of production: hashed names, compressed copies, and ES module
imports rewritten to the hashed names.

Without the rewrite, ``game.<hash>.js`` would import ``./board.js`` by its plain name: the
browser would fetch unhashed files with a short cache lifetime, and just after a deploy a
new ``game.js`` could run with an old ``board.js``. Django rewrites ``import ... from
"./x.js";`` (and ``import("./x.js")``) when this flag is set; ``scripts/rehearse-deploy``
checks the result (docs/frontend.md, "Static files in production").
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
