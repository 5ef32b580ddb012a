# tabbycat/settings/__init__.py without a local.py (the checkout ships only local.example, which the
# install docs copy to local.py): core.py then local.example, executed in this module's namespace
# with __file__ set to each file, as split_settings' include() does for core.py + local.py when no
# GITHUB_CI/IN_DOCKER/ON_HEROKU/ON_RENDER is set. __init__'s stdout log handler left out.
_d = '/work/realrepos/tabbycat/tabbycat/settings/'
_own = __file__
for _f in ('core.py', 'local.example'):
    __file__ = _d + _f
    with open(__file__) as _fh:
        exec(compile(_fh.read(), __file__, 'exec'), globals())
__file__ = _own
