"""The static files storage of production: hashed names, compressed copies, and ES module
imports rewritten to the hashed names.

Without the rewrite, ``pages/play.<hash>.js`` would import ``../shared/board.js`` by its
plain name: the browser would fetch unhashed files with a short cache lifetime, and just
after a deploy a new ``play.js`` could run with an old ``board.js``. Django rewrites
``import ... from "../shared/x.js";`` (and ``import(...)``) when this flag is set;
``scripts/rehearse-deploy`` checks the result (docs/frontend.md, "Static files in production").
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
