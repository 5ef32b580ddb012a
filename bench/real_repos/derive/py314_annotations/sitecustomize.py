"""Python 3.14's deferred annotations on an older interpreter, for one checkout's own modules.

Some applications rely on PEP 649 (Python 3.14): annotations that name what is imported only
under `TYPE_CHECKING`, forward references, names imported in a cycle (FlaskBB at 4b78af85,
papermerge-core at 4a69d097, whose images run 3.14). No 3.14 interpreter is on this machine, so a
truth run puts this folder on PYTHONPATH (Python imports `sitecustomize` at start-up) with
PY314_ANNOTATIONS_ROOT=<checkout>/ :

- the checkout's modules are compiled with `from __future__ import annotations`: an annotation is
  kept as a string, not evaluated when the `def`/`class` runs (3.14: not evaluated until read);
- the first `inspect.get_annotations(f, eval_str=True)` of one of the checkout's functions (what
  FastAPI does when a route is declared) stores the values it got in `f.__annotations__`, as 3.14
  keeps the values of its first evaluation: a name rebound later in the module (a route function
  named like the dependency it imports) does not change them.

No statement of the application is changed: no route or table is added or removed by it.
"""

import __future__

import contextlib
import importlib.machinery
import inspect
import os

_ROOT = os.environ["PY314_ANNOTATIONS_ROOT"]
_source_to_code = importlib.machinery.SourceFileLoader.source_to_code
_get_annotations = inspect.get_annotations


def _deferred_source_to_code(self, data, path, *, _optimize=-1):  # type: ignore[no-untyped-def]
    if str(path).startswith(_ROOT):
        flags = __future__.annotations.compiler_flag
        return compile(data, path, "exec", flags=flags, dont_inherit=True, optimize=_optimize)
    return _source_to_code(self, data, path, _optimize=_optimize)


def _first_evaluation_kept(obj, *, globals=None, locals=None, eval_str=False):  # type: ignore[no-untyped-def]
    result = _get_annotations(obj, globals=globals, locals=locals, eval_str=eval_str)
    code = getattr(obj, "__code__", None)
    if eval_str and code is not None and code.co_filename.startswith(_ROOT):
        with contextlib.suppress(AttributeError, TypeError):
            obj.__annotations__ = dict(result)
    return result


importlib.machinery.SourceFileLoader.source_to_code = _deferred_source_to_code  # type: ignore[method-assign]
inspect.get_annotations = _first_evaluation_kept
