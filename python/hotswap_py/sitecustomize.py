"""HotSwap's python runtime (HOTSWAP_PY_SITECUSTOMIZE).

Putting <hotswap root>/runtime/hotswap_py on PYTHONPATH makes every python
process import this file at start-up.  It turns on the backend adapters
named in HSA_HOTSWAP_BACKEND_ADAPTERS (a comma list); today:

  triton  With TRITON_CORPUS_FORCE_TARGET=arch[:wave] (wave 32 by default),
          Triton's AMD driver reports GPUTarget("hip", arch, wave), so Triton
          compiles for the source GPU the workload was built for.

It must never break interpreter start-up: every step is guarded, nothing is
printed unless HSA_HOTSWAP_VERBOSE is truthy (or something went wrong), and
nothing is imported until the workload imports Triton itself.  Any other
sitecustomize further along sys.path still runs afterwards.
"""

import os
import sys

_MARKER = "HOTSWAP_PY_SITECUSTOMIZE"
_DRIVER = "triton.backends.amd.driver"
_FALSE = {"", "0", "off", "false", "no"}


def _truthy(name):
    # The one truthiness rule of mirage (common/truthy.h).
    value = os.environ.get(name)
    return value is not None and value.strip().lower() not in _FALSE


def _note(msg):
    if _truthy("HSA_HOTSWAP_VERBOSE"):
        _warn(msg)


def _warn(msg):
    try:
        sys.stderr.write("hotswap: %s\n" % msg)
    except Exception:
        pass


def _adapters():
    raw = os.environ.get("HSA_HOTSWAP_BACKEND_ADAPTERS", "")
    return {a.strip() for a in raw.split(",") if a.strip()}


def parse_target(spec):
    """'gfx1250:32' -> ('gfx1250', 32); 'gfx1250' -> ('gfx1250', 32); else None."""
    if not spec:
        return None
    arch, _, wave = spec.strip().partition(":")
    if not arch.startswith("gfx") or len(arch) < 4:
        return None
    if not wave:
        return arch, 32
    try:
        n = int(wave)
    except ValueError:
        return None
    return (arch, n) if n in (32, 64) else None


def _patch_driver(module, target):
    """Makes module.HIPDriver report target; idempotent."""
    driver = getattr(module, "HIPDriver", None)
    if driver is None or getattr(driver, "_hotswap_target", None) == target:
        return False
    try:
        from triton.backends.compiler import GPUTarget
    except Exception as exc:  # an unexpected Triton layout: leave it alone
        _warn("triton adapter: cannot import GPUTarget (%s); not forcing %s" % (exc, target[0]))
        return False
    arch, wave = target

    def get_current_target(self):
        return GPUTarget("hip", arch, wave)

    get_current_target.__doc__ = "HotSwap: the source target %s (wave %d)." % target
    driver.get_current_target = get_current_target
    driver._hotswap_target = target
    _note("triton adapter: HIPDriver reports %s, wave %d" % target)
    return True


class _DriverHook:
    """A meta-path finder that patches the AMD driver module right after it executes."""

    def __init__(self, target):
        self.target = target

    def find_spec(self, fullname, path=None, target=None):
        if fullname != _DRIVER:
            return None
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader, hook_target = spec.loader, self.target

        class _Loader:
            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                loader.exec_module(module)
                try:
                    _patch_driver(module, hook_target)
                except Exception as exc:
                    _warn("triton adapter failed: %s" % exc)

            def __getattr__(self, name):
                return getattr(loader, name)

        spec.loader = _Loader()
        return spec


def install_triton(target):
    """Patches the driver now if Triton is already imported, and on import otherwise."""
    module = sys.modules.get(_DRIVER)
    if module is not None:
        _patch_driver(module, target)
    if not any(isinstance(f, _DriverHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _DriverHook(target))


def _install():
    if "triton" in _adapters():
        spec = os.environ.get("TRITON_CORPUS_FORCE_TARGET", "")
        target = parse_target(spec)
        if target:
            install_triton(target)
        elif spec:
            _warn("TRITON_CORPUS_FORCE_TARGET=%r is not arch[:32|64]; Triton left alone" % spec)


def _chain():
    """Runs the next sitecustomize on sys.path (not another copy of this one)."""
    import importlib.machinery
    import importlib.util

    here = os.path.realpath(os.path.dirname(os.path.abspath(__file__)))
    others = [p for p in sys.path if os.path.realpath(p or os.getcwd()) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", others)
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        return
    try:
        with open(spec.origin, "rb") as f:
            if _MARKER.encode() in f.read():
                return
    except OSError:
        return
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as exc:
        _warn("sitecustomize %s failed: %s: %s" % (spec.origin, type(exc).__name__, exc))


try:
    _install()
except Exception as _exc:  # never break start-up
    _warn("python runtime failed: %s" % _exc)
try:
    _chain()
except Exception as _exc:
    _warn("chaining sitecustomize failed: %s" % _exc)
