"""Build of the optional compiled parts; everything else is in setup.cfg.

Both extensions are optional: without a C compiler (or Python headers) the build goes on
without them, pcf.decode uses its pure-Python path and the analyze job its Python rows
(graph/pipeline/compiled.py).
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("pcf._cdecode", ["pcf/_cdecode.c"], optional=True),
    Extension("graph.pipeline._ccolumns", ["graph/pipeline/_ccolumns.c"], optional=True,
              extra_compile_args=["-O2"]),
])
