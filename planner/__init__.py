"""GPU Cluster Planner core: the plan, the hardware catalog and the checks.

Pure Python and pydantic. Nothing here imports Qt.
"""

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("gpu-cluster-planner")
except PackageNotFoundError:  # running from a source checkout
    __version__ = "0.1.0"
