"""Only the C extension of the solver; everything else about the package is in pyproject.toml.

``pip install -e .`` (or ``python setup.py build_ext --inplace``) compiles
``yukon/solver/_csolver.c`` into ``yukon.solver._csolver`` (Yukon and its one-deck family)
and ``yukon/solver/_cmulti.c`` into ``yukon.solver._cmulti`` (the multi-deck games). With
``YUKON_SANITIZE=1`` in the environment they are built with AddressSanitizer and UBSan
instead (see scripts/solver-sanitize-test).

A built package (the wheel the image installs) also carries the translations: each
locale/<language>/LC_MESSAGES/<domain>.po compiled by msgfmt (gettext) into
yukon_site/locale/, where settings.LOCALE_PATHS finds them when no checkout's locale/ is
there. An editable install reads the checkout's own (`make install` compiles them).
"""

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildPyWithCatalogues(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        catalogues = sorted((HERE / "locale").glob("*/LC_MESSAGES/*.po"))
        if not catalogues:
            raise SystemExit("setup.py: no locale/*/LC_MESSAGES/*.po to ship (COPY locale?)")
        msgfmt = shutil.which("msgfmt")
        if msgfmt is None:
            raise SystemExit("setup.py: msgfmt not found: install gettext")
        for po in catalogues:
            relative = po.relative_to(HERE / "locale").with_suffix(".mo")
            target = Path(self.build_lib) / "yukon_site" / "locale" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run([msgfmt, "--check-format", "-o", str(target), str(po)], check=True)


if os.environ.get("YUKON_SANITIZE") == "1":
    compile_args = [
        "-O1",
        "-g",
        "-fsanitize=address,undefined",
        "-fno-omit-frame-pointer",
        "-fno-sanitize-recover=undefined",
    ]
    link_args = ["-fsanitize=address,undefined"]
else:
    compile_args = ["-O3", "-std=c11"]
    link_args = []

setup(
    cmdclass={"build_py": BuildPyWithCatalogues},
    ext_modules=[
        Extension(
            f"yukon.solver.{name}",
            sources=[f"yukon/solver/{name}.c"],
            depends=["yukon/solver/_common.h"],
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        )
        for name in ("_csolver", "_cmulti")
    ],
)
