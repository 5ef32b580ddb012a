"""The soak's plugins and faults, by name (what `--plugins` and `--faults` choose from)."""

REFERENCE_PLUGINS = ("reference-detector", "reference-detector-node")
ERRATIC, DEAF = "soak-erratic", "soak-deaf"
ALL_PLUGINS = (*REFERENCE_PLUGINS, ERRATIC, DEAF)
PLUGIN_WEIGHTS = {"reference-detector": 3, "reference-detector-node": 2, ERRATIC: 3, DEAF: 2}

DIRECTIVE_FAULTS = ("slow", "crash", "garbage", "error", "flood")  # asked of soak-erratic
ALL_FAULTS = (*DIRECTIVE_FAULTS, "stop-reading", "sigkill", "trickle", "vanish")

REQUEST_MS = 1000
