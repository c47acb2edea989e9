"""A fake IBM `ibmmq` module: the fake pymqi (tests/support/fake_pymqi.py) under ibmmq's
name and shape, for testing that MQTransport prefers and drives ibmmq.

What differs from pymqi, after ibmmq's documentation and source (mq-mqi-python 2.x): the
module is `ibmmq`; its C extension is `ibmmq.ibmmqc` (pymqi's is `pymqe`), with
`__version__` equal to the package's; the MQI constants are in `CMQC` and the channel ones
(MQCHT_*, MQXPT_*, MQCD_VERSION_*) in `CMQXC`; and `import ibmmq` hooks OpenTelemetry into
the MQI calls unless MQIPY_NOOTEL is set (any value) at import time - the fake records what
it saw in `otel_hooked`. Everything else is the fake pymqi's model of a queue manager.
"""

from __future__ import annotations

import os
import types

from pcf import mqc
from tests.support.fake_pymqi import make_fake_pymqi
from traceroute.sim.simulator import Simulator

VERSION = "2.0.1"
CMQXC_NAMES = ("MQCHT_CLNTCONN", "MQCHT_SENDER", "MQCHT_RECEIVER", "MQCHT_SVRCONN",
               "MQXPT_TCP", "MQCD_VERSION_7", "MQCD_VERSION_11")


def make_fake_ibmmq(sim: Simulator, **kwargs) -> types.ModuleType:
    """An `ibmmq`-like module over `sim` (keyword arguments as make_fake_pymqi's)."""
    base = make_fake_pymqi(sim, **kwargs)
    module = types.ModuleType("ibmmq", "fake ibmmq over a traceroute Simulator (tests only)")
    module.__dict__.update({k: v for k, v in vars(base).items() if not k.startswith("__")})
    module.__version__ = VERSION
    module.ibmmqc = types.ModuleType("ibmmq.ibmmqc")
    module.ibmmqc.__version__ = VERSION
    module.CMQXC = types.SimpleNamespace(**{n: getattr(mqc, n) for n in CMQXC_NAMES})
    module.otel_hooked = os.environ.get("MQIPY_NOOTEL") is None
    return module


class Importer:
    """A sys.meta_path finder that builds a fake client module when it is imported, so that
    import-time behaviour (ibmmq reading MQIPY_NOOTEL) happens at `import` as for real.

    `modules` maps a module name ('ibmmq', 'pymqi') to a function making it; `imported`
    lists the names imported through this finder, in order.
    """

    def __init__(self, modules: dict) -> None:
        self.modules = modules
        self.imported: list[str] = []

    def find_spec(self, name, path=None, target=None):
        """A spec for the fake modules, None for everything else."""
        import importlib.machinery

        if name not in self.modules:
            return None
        return importlib.machinery.ModuleSpec(name, self)

    def create_module(self, spec):
        """Build the fake module (reads the environment now, at import)."""
        self.imported.append(spec.name)
        return self.modules[spec.name]()

    def exec_module(self, module):
        """Nothing more to run: the module is complete."""
