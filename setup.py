"""Build of the optional compiled PCF decoder; everything else is in setup.cfg.

The extension is optional: without a C compiler (or Python headers) the build goes on
without it and pcf.decode uses its pure-Python path.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("pcf._cdecode", ["pcf/_cdecode.c"], optional=True)])
