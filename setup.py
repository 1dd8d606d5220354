"""Only the C extension of the solver; everything else about the package is in pyproject.toml.

``pip install -e .`` (or ``python setup.py build_ext --inplace``) compiles
``yukon/solver/_csolver.c`` into ``yukon.solver._csolver``. With ``YUKON_SANITIZE=1`` in
the environment it is built with AddressSanitizer and UBSan instead (see
scripts/solver-sanitize-test).
"""

import os

from setuptools import Extension, setup

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
    ext_modules=[
        Extension(
            "yukon.solver._csolver",
            sources=["yukon/solver/_csolver.c"],
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        )
    ]
)
